// Readers of OpenCV's cascade XML and the LBP writer. LBP: the "new" format, as written by opencv_traincascade:
//   <opencv_storage><cascade> stageType BOOST, featureType LBP, maxCatCount 256, stump weak classifiers.
//
// Each stump "0 -1 featureIdx s0..s7" (a 256-bit category subset) with leaves (leaf0, leaf1) becomes one
// LbpWeak with its own 256-entry response table: entry c = leaf0 when bit c of the subset is set, else leaf1,
// which is what OpenCV's predictCategoricalStump computes. Numbers are converted as OpenCV's FileStorage
// converts them: a decimal text is read as a double and cast to float; a stage threshold is then lowered by
// OpenCV's THRESHOLD_EPS (1e-5f) in float, giving the exact float OpenCV compares the stage sum against.
// The sum policy is per_stage.
//
// Haar cascades (featureType HAAR, and the pre-2.0 opencv-haar-classifier format) are read by
// haar_cascade_from_opencv_xml (common/opencv_haar_xml.cpp); is_opencv_haar tells them apart.
//
// Rejected with InputError(source, ...): HoG cascades, LBP trees deeper than stumps, maxCatCount other than
// 256, missing elements and garbled numbers.
// load_model (common/model_io.hpp) is the usual entry point; it recognises these files by their root.
//
// The writer does the inverse for per-stage LBP cascades whose every response table holds at most two values
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

// True when the <opencv_storage> root holds a Haar cascade, of either format.
bool is_opencv_haar(const tinyxml2::XMLElement& opencv_storage);

// Converts a Haar cascade as OpenCV 4.6 loads it: the new format (stageType BOOST, featureType HAAR, trees of
// any depth, maxCatCount 0) as CascadeClassifierImpl::Data::read and HaarEvaluator::Feature::read read it; the
// old format (<size>, <stages> of <trees> of nodes with left_val/right_val or left_node/right_node) as
// cascadedetect_convert.cpp converts it on load: nodes in file order, leaves numbered in the order the nodes
// name them, a third rectangle whose |weight| < FLT_EPSILON dropped, stages' parent/next links ignored (the
// stages run in file order). Stage thresholds are lowered by OpenCV's THRESHOLD_EPS as for LBP. Refused:
// more than three rectangles, a feature without <rects>, maxCatCount other than 0, a tree whose leaves are
// not one more than its nodes (OpenCV would read past them), garbled numbers. Not validated.
HaarCascade haar_cascade_from_opencv_xml(const tinyxml2::XMLElement& opencv_storage, const std::string& source);

// What the written <stageParams> record of the training (informative: cv::CascadeClassifier ignores it).
struct OpenCvStageParams {
    std::string boost_type = "GAB";  // DAB, RAB, LB, GAB as opencv_traincascade names them
    double min_hit_rate = 0.995;
    double max_false_alarm = 0.5;
    double weight_trim_rate = 0.95;
    int max_weak_count = 100;
    int max_depth = 1;  // of the weak learners' trees (1: stumps; LBP writes stumps only)
    std::string haar_mode = "BASIC";  // Haar: BASIC, CORE or ALL
};

// The XML text of `cascade` in OpenCV's format; `source` names the model in errors.
std::string opencv_cascade_xml(const LbpCascade& cascade, const OpenCvStageParams& params, const std::string& source);
// Writes it to `path` atomically.
void save_opencv_cascade(const LbpCascade& cascade, const OpenCvStageParams& params, const std::string& path);

// The same for a Haar cascade of stumps (trained by cascade-train haar): featureType HAAR, a feature per stump,
// params.haar_mode as its mode; deeper trees, and tilted features under a mode other than ALL, are refused.
std::string opencv_cascade_xml(const HaarCascade& cascade, const OpenCvStageParams& params, const std::string& source);
void save_opencv_cascade(const HaarCascade& cascade, const OpenCvStageParams& params, const std::string& path);

}  // namespace cascade
