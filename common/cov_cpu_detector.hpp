// The CPU reference region covariance detector: the oracle for the GPU's. scan_pyramid over CovFamily's grid
// integrals and the shared window evaluation (common/cov_eval.hpp, common/cascade_eval.hpp);
// common/cpu_detectors.cpp. One level per thread at a time (CovFamily::kAllLevelsAtOnce is false).
#pragma once

#include <vector>

#include "common/detection.hpp"
#include "common/image.hpp"
#include "common/model.hpp"
#include "common/scan.hpp"

namespace cascade {

// Tuzel et al.'s scan and the GPU benchmark's: windows 8 pixels apart.
constexpr int kCovDefaultStride = 8;

// Every window the cascade accepts, as the other families' detect_windows. Windows sit on the kCovGrid grid:
// params.rule.stride must be a positive multiple of kCovGrid (InputError naming "stride" otherwise), and levels
// at most kCovMaxLevelSide pixels a side (InputError naming "image").
std::vector<Detection> detect_windows(const CovCascade& cascade, const GrayView& image, const ScanParams& params,
                                      ScanStats* stats = nullptr);

// The InputError above for a stride the covariance family cannot scan; nothing for one it can.
void check_cov_stride(int stride);

}  // namespace cascade
