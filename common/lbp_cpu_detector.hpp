// The CPU reference LBP detector: the oracle that every GPU result is tested against.
// scan_pyramid (common/scan_pyramid.hpp: pyramid, exact bilinear resize, scan) over LbpFamily's integral
// images and the shared window evaluation (common/cascade_eval.hpp), on all cores; common/cpu_detectors.cpp.
#pragma once

#include <vector>

#include "common/detection.hpp"
#include "common/image.hpp"
#include "common/model.hpp"
#include "common/pyramid.hpp"
#include "common/scan.hpp"

namespace cascade {

// Every window the cascade accepts, in image coordinates, score = final sum; sorted by (x, y, w, h) so the
// result does not depend on thread timing. Requires a validated cascade and params.pyramid.scale_factor > 1.
// `stats`, when given, is reset and filled.
std::vector<Detection> detect_windows(const LbpCascade& cascade, const GrayView& image, const ScanParams& params,
                                      ScanStats* stats = nullptr);

}  // namespace cascade
