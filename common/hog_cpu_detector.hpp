// The CPU reference HoG detector (Bilgic 2010, Sec. 5.5): the oracle for the GPU HoG detector.
// Pyramid (common/pyramid.hpp) + exact bilinear resize + integral histograms (common/hog_features.hpp) +
// scan (common/scan.hpp) + the shared window evaluation (common/hog_eval.hpp, common/cascade_eval.hpp).
//
// Scan settings of the thesis: ScanRule{8} (sparse) or ScanRule{4} (dense), scale factors 1.05, 1.1, 1.2.
// A window is rejected at the first stage it fails; HogScanStats counts what the scan evaluated.
//
// Parallel over pyramid levels: each task builds one level's integral histograms and scans it, so memory
// stays at one level per thread (nine uint32 planes per level would make the LBP detector's "all levels
// first" composition nine times heavier). parallel_for hands out the largest level first.
#pragma once

#include <cstdint>
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

struct HogScanStats {
    std::int64_t windows = 0;
    std::int64_t blocks = 0;               // block descriptors evaluated, all windows together
    std::vector<std::int64_t> rejected_at;  // [s]: windows rejected by stage s; [num_stages]: accepted

    void add(const HogScanStats& other);
    double blocks_per_window() const { return windows > 0 ? static_cast<double>(blocks) / static_cast<double>(windows) : 0.0; }
};

// The integral histograms of one pyramid level of `image`: the exact bilinear resize to level.size, then
// compute_hog_integral.
void compute_hog_level(const GrayView& image, const PyramidLevel& level, HogIntegral& out);

// Every window the cascade accepts, in image coordinates, score = the last stage's sum; sorted by
// (x, y, w, h). Requires a validated cascade and params.pyramid.scale_factor > 1. `stats`, when given, is
// reset and filled.
std::vector<Detection> detect_windows(const HogCascade& cascade, const GrayView& image, const ScanParams& params,
                                      HogScanStats* stats = nullptr);

}  // namespace cascade
