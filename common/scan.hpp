// Which window positions a detector visits on one pyramid level. Shared by every feature type.
//
// Two rules:
//   - fixed stride (stride > 0): every stride-th position in x and y;
//   - OpenCV's rule (stride == 0): step 2 on levels with scale < 2 and 1 above, and the position after a
//     window rejected by the first stage is skipped (CascadeClassifier's invoker does this), so that raw
//     windows equal OpenCV's.
#pragma once

#include <algorithm>

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

inline int scan_step(const ScanRule& rule, const PyramidLevel& level) {
    return rule.stride > 0 ? rule.stride : (level.scale >= 2.f ? 1 : 2);
}

// Number of window origins along one axis: positions 0 .. level_len - window_len inclusive.
inline int scan_extent(int level_len, int window_len) { return std::max(level_len - window_len + 1, 0); }

// Visits row y of a level. `eval(x, y)` returns the stage that rejected the window (or the number of stages
// when it passed) and records what it needs itself.
template <class Eval>
void scan_row(const ScanRule& rule, const PyramidLevel& level, Size window, int y, Eval&& eval) {
    const int step = scan_step(rule, level);
    const int x_end = scan_extent(level.size.width, window.width);
    for (int x = 0; x < x_end; x += step) {
        const int rejected_at = eval(x, y);
        if (rule.stride == 0 && rejected_at == 0) x += step;
    }
}

}  // namespace cascade
