// The CPU reference Haar detector, bit-exact with OpenCV 4.6's cv::CascadeClassifier on its Haar cascades:
// scan_pyramid (common/scan_pyramid.hpp: OpenCV's pyramid, exact resize and scan rule) over HaarFamily's
// integral images and the shared window evaluation (common/haar_eval.hpp); common/cpu_detectors.cpp.
#pragma once

#include <vector>

#include "common/detection.hpp"
#include "common/image.hpp"
#include "common/model.hpp"
#include "common/scan.hpp"

namespace cascade {

// Every window the cascade accepts, in image coordinates, score = final stage's sum; sorted by rectangle.
// Requires a validated cascade and params.pyramid.scale_factor > 1. `stats`, when given, is reset and filled.
std::vector<Detection> detect_windows(const HaarCascade& cascade, const GrayView& image, const ScanParams& params,
                                      ScanStats* stats = nullptr);

}  // namespace cascade
