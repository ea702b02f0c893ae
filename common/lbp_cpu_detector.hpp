// The CPU reference LBP detector: the oracle that every GPU result is tested against.
// Pyramid (common/pyramid.hpp) + exact bilinear resize + integral images + scan (common/scan.hpp) +
// the shared window evaluation (common/cascade_eval.hpp), on all cores.
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
std::vector<Detection> detect_windows(const LbpCascade& cascade, const GrayView& image, const ScanParams& params);

}  // namespace cascade
