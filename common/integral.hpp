// Exclusive integral images of 8-bit images: of the pixels, as uint32 (see IntegralView for why unsigned), and
// of their squares summed over planes, as uint64 (template matching's window energies).
#pragma once

#include <cstdint>
#include <vector>

#include "common/image.hpp"
#include "common/integral_view.hpp"

namespace cascade {

struct IntegralImage {
    Size size;  // of the source image; the table is (width+1) x (height+1)
    std::vector<std::uint32_t> sums;

    IntegralView view() const { return {sums.data(), size.width + 1}; }
};

void compute_integral(const GrayView& image, IntegralImage& out);

struct SquareIntegralImage {
    Size size;  // of the source planes; the table is (width+1) x (height+1)
    std::vector<std::uint64_t> sums;

    SquareIntegralView view() const { return {sums.data(), size.width + 1}; }
};

// compute_square_integral: the integral of sum over planes[0..count) of pixel^2.
//   requires: count >= 1 planes of one size.
void compute_square_integral(const GrayView* planes, int count, SquareIntegralImage& out);

}  // namespace cascade
