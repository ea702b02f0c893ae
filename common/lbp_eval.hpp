// Multi-block LBP feature evaluation, written once for host and device.
//
// Sampler contract: `s.at(x, y)` returns the uint32 exclusive-integral value at (x, y). IntegralView is the
// host (and plain device pointer) sampler; GPU kernels may pass a texture-backed one. A sampler over a
// row-major array also has `origin(x, y)`, a pointer to (x, y), and `stride`; lbp_code then reads the corners
// at the feature's offsets from the window's first element (lbp_steps), as the GPU's integral tiles do with
// offsets computed once per weak learner for their fixed row pitch.
#pragma once

#include <cstdint>
#include <type_traits>
#include <utility>

#include "common/hd.hpp"
#include "common/model.hpp"

namespace cascade {

// LBP code from a feature's 4 x 4 corner grid p[row][col]. Bit order and the >= comparison follow OpenCV's
// LBPEvaluator so that OpenCV's cascades evaluate bit-exactly: clockwise from the top-left cell, top-left =
// bit 7 (set when the cell's sum is >= the centre cell's).
// How, in few instructions (the GPU's inner loop): cell - centre in wrapping 32-bit arithmetic is the exact
// difference, since cell sums are far below 2^31, so its sign bit says "below the centre"; the eight sign bits
// are shifted in one after another (a funnel shift each) and the code is their complement.
CASCADE_HD int lbp_code_of(const std::uint32_t (&p)[4][4]) {
    const std::uint32_t centre = p[1][1] - p[1][2] - p[2][1] + p[2][2];
    std::uint32_t below = 0;
    auto shift_in = [&](int r, int c) {
        below = below << 1 | (p[r][c] - p[r][c + 1] - p[r + 1][c] + p[r + 1][c + 1] - centre) >> 31;
    };
    shift_in(0, 0);
    shift_in(0, 1);
    shift_in(0, 2);
    shift_in(1, 2);
    shift_in(2, 2);
    shift_in(2, 1);
    shift_in(2, 0);
    shift_in(1, 0);
    return static_cast<int>(~below & 255u);
}

// Where a feature's corners lie in a row-major integral image: corner (r, c) is first + r * row + c * col
// elements after the window's top-left element.
struct LbpSteps {
    int first, row, col;
};

CASCADE_HD LbpSteps lbp_steps(LbpFeature f, int stride) { return {f.y * stride + f.x, f.height * stride, f.width}; }

// LBP code of the feature at `steps` for the window whose top-left integral element is `*window`.
CASCADE_HD int lbp_code(const std::uint32_t* window, LbpSteps k) {
    std::uint32_t p[4][4];
CASCADE_UNROLL
    for (int r = 0; r < 4; ++r) {
        const std::uint32_t* row = window + k.first + r * k.row;
CASCADE_UNROLL
        for (int c = 0; c < 4; ++c) p[r][c] = row[c * k.col];
    }
    return lbp_code_of(p);
}

template <class Sampler, class = void>
struct is_row_major : std::false_type {};
template <class Sampler>
struct is_row_major<Sampler, std::void_t<decltype(std::declval<const Sampler&>().origin(0, 0))>> : std::true_type {};

// LBP code of `f` for the window whose top-left corner is (wx, wy).
template <class Sampler>
CASCADE_HD int lbp_code(const Sampler& s, int wx, int wy, LbpFeature f) {
    if constexpr (is_row_major<Sampler>::value) {
        return lbp_code(s.origin(wx, wy), lbp_steps(f, s.stride));
    } else {
        const int x0 = wx + f.x, y0 = wy + f.y;
        std::uint32_t p[4][4];
CASCADE_UNROLL
        for (int r = 0; r < 4; ++r)
CASCADE_UNROLL
            for (int c = 0; c < 4; ++c) p[r][c] = s.at(x0 + c * f.width, y0 + r * f.height);
        return lbp_code_of(p);
    }
}

}  // namespace cascade
