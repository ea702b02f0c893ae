// The CPU reference HoG detector (Bilgic 2010, Sec. 5.5): the oracle for the GPU HoG detector.
// scan_pyramid (common/scan_pyramid.hpp: pyramid, exact bilinear resize, scan) over HogFamily's integral
// histograms and the shared window evaluation (common/hog_eval.hpp, common/cascade_eval.hpp);
// common/cpu_detectors.cpp.
//
// Scan settings of the thesis: ScanRule{8} (sparse) or ScanRule{4} (dense), scale factors 1.05, 1.1, 1.2.
// A window is rejected at the first stage it fails; ScanStats counts what the scan evaluated.
//
// Parallel over pyramid levels (HogFamily::kAllLevelsAtOnce is false): each task builds one level's integral
// histograms and scans it, so memory stays at one level per thread.
#pragma once

#include <vector>

#include "common/detection.hpp"
#include "common/hog_eval.hpp"
#include "common/hog_features.hpp"
#include "common/image.hpp"
#include "common/model.hpp"
#include "common/pyramid.hpp"
#include "common/scan.hpp"

namespace cascade {

constexpr int kHogSparseStride = 8;
constexpr int kHogDenseStride = 4;

// Every window the cascade accepts, in image coordinates, score = the last stage's sum; sorted by
// (x, y, w, h). Requires a validated cascade and params.pyramid.scale_factor > 1. `stats`, when given, is
// reset and filled.
std::vector<Detection> detect_windows(const HogCascade& cascade, const GrayView& image, const ScanParams& params,
                                      ScanStats* stats = nullptr);

}  // namespace cascade
