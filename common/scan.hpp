// Which window positions a detector visits on one pyramid level. Shared by every feature type.
//
// Two rules:
//   - fixed stride (stride > 0): every stride-th position in x and y;
//   - OpenCV's rule (stride == 0): step 2 on levels with scale < 2 and 1 above, and the position after a
//     window rejected by the first stage is skipped (CascadeClassifier's invoker does this), so that raw
//     windows equal OpenCV's.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "common/geometry.hpp"
#include "common/pyramid.hpp"

namespace cascade {

struct ScanRule {
    int stride = 0;  // 0: OpenCV's rule
};

// What a CPU detector scans: the pyramid levels, the positions on each, and on how many threads.
struct ScanParams {
    PyramidParams pyramid;
    ScanRule rule;
    int threads = 0;  // 0: all cores
};

// What a scan evaluated (the CPU detectors fill it when asked).
struct ScanStats {
    std::int64_t windows = 0;
    std::int64_t weaks = 0;                 // weak learners evaluated (HoG: blocks), all windows together
    // [s]: windows rejected by stage s (a final stage, has_final_stage, is stage num_stages); back(): accepted
    std::vector<std::int64_t> rejected_at;
    std::int64_t refused = 0;               // windows the family refused before any stage (kWindowRefused)

    void add(const ScanStats& other) {
        windows += other.windows;
        weaks += other.weaks;
        refused += other.refused;
        if (rejected_at.size() < other.rejected_at.size()) rejected_at.resize(other.rejected_at.size(), 0);
        for (std::size_t s = 0; s < other.rejected_at.size(); ++s) rejected_at[s] += other.rejected_at[s];
    }
    double weaks_per_window() const {
        return windows > 0 ? static_cast<double>(weaks) / static_cast<double>(windows) : 0.0;
    }
};

inline int scan_step(const ScanRule& rule, const PyramidLevel& level) {
    return rule.stride > 0 ? rule.stride : (level.scale >= 2.f ? 1 : 2);
}

// Number of window origins along one axis: positions 0 .. level_len - window_len inclusive.
inline int scan_extent(int level_len, int window_len) { return std::max(level_len - window_len + 1, 0); }

// Rows of window origins scanned on a level: 0 .. scan_rows_end - 1. A fixed stride scans every row that fits;
// OpenCV's rule stops where CascadeClassifier's stripes end. detectMultiScale cuts the rows of every level into
// nstripes = ceil(origins per row of its first level / 32) stripes of max((rows / step + nstripes - 1) /
// nstripes, 1) * step rows, which can cover fewer rows than the level holds (67 rows at step 2 in 3 stripes of
// 22: row 66 is never scanned). `first_level_width`: the width of the first level scanned.
inline int scan_rows_end(const ScanRule& rule, const PyramidLevel& level, int first_level_width, Size window) {
    const int rows = scan_extent(level.size.height, window.height);
    if (rule.stride > 0) return rows;
    const int stripes = (scan_extent(first_level_width, window.width) + 31) / 32;
    if (stripes == 0) return rows;
    const int step = scan_step(rule, level);
    return std::min(rows, stripes * std::max((rows / step + stripes - 1) / stripes, 1) * step);
}

// The first position a fixed-stride scan visits on a level (the miners start each level at a random one).
struct ScanOrigin {
    int x = 0;
    int y = 0;
};

// Visits row y of a level from column x0 (0 for OpenCV's rule). `eval(x, y)` returns the stage that rejected
// the window (or the number of stages when it passed) and records what it needs itself.
template <class Eval>
void scan_row(const ScanRule& rule, const PyramidLevel& level, Size window, int y, int x0, Eval&& eval) {
    const int step = scan_step(rule, level);
    const int x_end = scan_extent(level.size.width, window.width);
    for (int x = x0; x < x_end; x += step) {
        const int rejected_at = eval(x, y);
        if (rule.stride == 0 && rejected_at == 0) x += step;
    }
}

}  // namespace cascade
