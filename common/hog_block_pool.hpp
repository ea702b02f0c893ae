// The pool of candidate HoG blocks that the trainer samples weak learners from (Zhu et al. 2006, Bilgic
// 2010, Sec. 5.3: "block sizes ranging from 12x12 to 64x128 ... width and height divisible by two ... aspect
// ratios (1:1), (1:2) and (2:1) ... a step size which can take values {4, 6, 8}"; the thesis gives the count,
// 5029, but not the rule).
//
// The rule, in full:
//   - shapes: w x h with w:h = 1:1, 1:2 or 2:1, both sides even, the shorter side >= 12, inside the window
//     (for 64x128: squares 12..64, 1:2 blocks 12x24..64x128, 2:1 blocks 24x12..64x32; sides step by 2);
//   - position step by the shorter side s: 4 when s < 16, 6 when 16 <= s < 24, 8 when s >= 24;
//   - positions: x = 0, step, 2 step, ... while x + w <= window width; the same for y.
// For the 64x128 window this gives exactly 5029 blocks, the thesis's count (kHogPoolSize).
#pragma once

#include <vector>

#include "common/geometry.hpp"

namespace cascade {

constexpr int kHogPoolSize = 5029;  // hog_block_pool({64, 128}).size()

// Every block of the rule above for `window`, ordered by shape (squares, then 1:2, then 2:1, each by
// increasing shorter side), then by y, then by x. Empty when the window is smaller than 12x12.
std::vector<Rect> hog_block_pool(Size window);

// The position step of a block of that size (4, 6 or 8).
int hog_block_step(int width, int height);

}  // namespace cascade
