// Read-only view of an exclusive integral image: (width+1) x (height+1) sums, row `y` column `x` holding the
// sum of all pixels above and left of (x, y). Sums are uint32 so that a rectangle's sum, taken as a
// difference of four corners, is exact modulo 2^32 even where the running totals wrap (large frames).
#pragma once

#include <cstdint>

#include "common/hd.hpp"

namespace cascade {

struct IntegralView {
    const std::uint32_t* data = nullptr;
    int stride = 0;  // elements per row

    CASCADE_HD std::uint32_t at(int x, int y) const { return data[y * stride + x]; }
    CASCADE_HD const std::uint32_t* origin(int x, int y) const { return data + y * stride + x; }
    // The sum over the rectangle [x, x + w) x [y, y + h), exact while it is below 2^32.
    CASCADE_HD std::uint32_t rect(int x, int y, int w, int h) const {
        return at(x + w, y + h) - at(x, y + h) - at(x + w, y) + at(x, y);
    }
};

// Read-only view of an exclusive integral image of squared pixels (summed over up to three planes), as uint64:
// exact without wrapping for any image of fewer than 2^64 / (3 * 255^2) pixels.
struct SquareIntegralView {
    const std::uint64_t* data = nullptr;
    int stride = 0;  // elements per row

    CASCADE_HD std::uint64_t at(int x, int y) const { return data[y * stride + x]; }
    // The sum over the rectangle [x, x + w) x [y, y + h).
    CASCADE_HD std::uint64_t rect(int x, int y, int w, int h) const {
        return at(x + w, y + h) - at(x, y + h) - at(x + w, y) + at(x, y);
    }
};

}  // namespace cascade
