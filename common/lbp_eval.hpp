// Multi-block LBP feature evaluation, written once for host and device.
//
// Sampler contract: `s.at(x, y)` returns the uint32 exclusive-integral value at (x, y). IntegralView is the
// host (and plain device pointer) sampler; GPU kernels may pass a texture-backed one.
#pragma once

#include <cstdint>

#include "common/hd.hpp"
#include "common/model.hpp"

namespace cascade {

// LBP code of `f` for the window whose top-left corner is (wx, wy). Bit order and the >= comparison follow
// OpenCV's LBPEvaluator so that OpenCV's cascades evaluate bit-exactly: clockwise from the top-left cell,
// top-left = bit 7.
template <class Sampler>
CASCADE_HD int lbp_code(const Sampler& s, int wx, int wy, LbpFeature f) {
    const int x0 = wx + f.x, y0 = wy + f.y;
    std::uint32_t p[4][4];  // corner grid: p[row][col]
CASCADE_UNROLL
    for (int r = 0; r < 4; ++r)
CASCADE_UNROLL
        for (int c = 0; c < 4; ++c) p[r][c] = s.at(x0 + c * f.width, y0 + r * f.height);
    auto cell = [&](int r, int c) {
        return static_cast<std::int32_t>(p[r][c] - p[r][c + 1] - p[r + 1][c] + p[r + 1][c + 1]);
    };
    const std::int32_t centre = cell(1, 1);
    return (cell(0, 0) >= centre ? 128 : 0) | (cell(0, 1) >= centre ? 64 : 0) | (cell(0, 2) >= centre ? 32 : 0) |
           (cell(1, 2) >= centre ? 16 : 0) | (cell(2, 2) >= centre ? 8 : 0) | (cell(2, 1) >= centre ? 4 : 0) |
           (cell(2, 0) >= centre ? 2 : 0) | (cell(1, 0) >= centre ? 1 : 0);
}

}  // namespace cascade
