// Reader and writer for OpenCV's "new" cascade XML, as written by opencv_traincascade:
//   <opencv_storage><cascade> stageType BOOST, featureType LBP, maxCatCount 256, stump weak classifiers.
//
// Each stump "0 -1 featureIdx s0..s7" (a 256-bit category subset) with leaves (leaf0, leaf1) becomes one
// LbpWeak with its own 256-entry response table: entry c = leaf0 when bit c of the subset is set, else leaf1,
// which is what OpenCV's predictCategoricalStump computes. Numbers are converted as OpenCV's FileStorage
// converts them: a decimal text is read as a double and cast to float; a stage threshold is then lowered by
// OpenCV's THRESHOLD_EPS (1e-5f) in float, giving the exact float OpenCV compares the stage sum against.
// The sum policy is per_stage.
//
// Rejected with InputError(source, ...): Haar and HoG cascades, the old Haar format (opencv-haar-classifier),
// trees deeper than stumps, maxCatCount other than 256, missing elements and garbled numbers.
// load_model (common/model_io.hpp) is the usual entry point; it recognises these files by their root.
//
// The writer does the inverse for per-stage cascades whose every response table holds at most two values
// (trained by cascade-train lbp-opencv, or read by the reader): each table becomes a stump (the subset of the
// codes whose response differs from code 0's), features are listed once each, and each stage threshold is
// written as the float that OpenCV, lowering it by 1e-5f, turns back into exactly the model's threshold.
// Loading the written file gives back the same cascade bit for bit. Other cascades are refused (InputError).
#pragma once

#include <string>

#include "common/model.hpp"

namespace tinyxml2 {
class XMLElement;
}

namespace cascade {

// Converts the <opencv_storage> root element of a parsed OpenCV cascade file. `source` names the file in
// messages. The result is not validated; load_model calls validate() on it.
LbpCascade lbp_cascade_from_opencv_xml(const tinyxml2::XMLElement& opencv_storage, const std::string& source);

// What the written <stageParams> record of the training (informative: cv::CascadeClassifier ignores it).
struct OpenCvStageParams {
    std::string boost_type = "GAB";  // DAB, RAB, LB, GAB as opencv_traincascade names them
    double min_hit_rate = 0.995;
    double max_false_alarm = 0.5;
    double weight_trim_rate = 0.95;
    int max_weak_count = 100;
};

// The XML text of `cascade` in OpenCV's format; `source` names the model in errors.
std::string opencv_cascade_xml(const LbpCascade& cascade, const OpenCvStageParams& params, const std::string& source);
// Writes it to `path` atomically.
void save_opencv_cascade(const LbpCascade& cascade, const OpenCvStageParams& params, const std::string& path);

}  // namespace cascade
