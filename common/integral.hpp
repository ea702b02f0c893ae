// Exclusive integral image of an 8-bit image, as uint32 (see IntegralView for why unsigned).
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

}  // namespace cascade
