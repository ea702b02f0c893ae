// Reader for OpenCV's "new" cascade XML, as written by opencv_traincascade:
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

}  // namespace cascade
