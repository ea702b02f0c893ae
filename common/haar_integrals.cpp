#include "common/haar_integrals.hpp"

#include <algorithm>

namespace cascade {

namespace {

// The tilted integral as the difference of two sums of row prefix sums R_y(k) = sum of row y's first k
// pixels (k clamped to [0, width]): with d = Y - 1 - y, row y adds R_y(X + d) - R_y(X - 1 - d), so
//   A(X, Y) = sum_{y<Y} R_y(X + Y - 1 - y) = A(X + 1, Y - 1) + R_{Y-1}(X)      (along anti-diagonals)
//   B(X, Y) = sum_{y<Y} R_y(X - Y + y)     = B(X - 1, Y - 1) + R_{Y-1}(X - 1)  (along diagonals)
// and tilted = A - B. Past the right edge A(X > width, Y) is the sum of all rows above Y (every R_y is the
// whole row); left of it B(X <= 0, Y) is 0. Everything is exact modulo 2^32.
void compute_tilted(const GrayView& image, const std::vector<std::uint32_t>& sums, std::vector<std::uint32_t>& out) {
    const int w = image.width, h = image.height, stride = w + 1;
    std::vector<std::uint32_t> a(static_cast<std::size_t>(stride), 0u), b(a), prefix(a);
    std::vector<std::uint32_t> next_a(a), next_b(a);
    std::fill(out.begin(), out.begin() + stride, 0u);
    for (int y = 1; y <= h; ++y) {
        // prefix[k] = R_{y-1}(k)
        std::uint32_t run = 0;
        for (int k = 0; k < w; ++k) {
            run += image.at(k, y - 1);
            prefix[static_cast<std::size_t>(k + 1)] = run;
        }
        const std::uint32_t rows_above = sums[static_cast<std::size_t>(y - 1) * stride + w];  // A(width + 1, y - 1)
        for (int x = 0; x <= w; ++x) {
            const std::uint32_t a_right = x + 1 <= w ? a[static_cast<std::size_t>(x + 1)] : rows_above;
            const std::uint32_t b_left = x >= 1 ? b[static_cast<std::size_t>(x - 1)] : 0u;
            next_a[static_cast<std::size_t>(x)] = a_right + prefix[static_cast<std::size_t>(x)];
            next_b[static_cast<std::size_t>(x)] = b_left + (x >= 1 ? prefix[static_cast<std::size_t>(x - 1)] : 0u);
            out[static_cast<std::size_t>(y) * stride + x] = next_a[static_cast<std::size_t>(x)] -
                                                             next_b[static_cast<std::size_t>(x)];
        }
        a.swap(next_a);
        b.swap(next_b);
    }
}

}  // namespace

void compute_haar_integrals(const GrayView& image, HaarIntegrals& out) {
    const int w = image.width, h = image.height, stride = w + 1;
    out.size = image.size();
    const std::size_t n = static_cast<std::size_t>(stride) * (h + 1);
    out.sums.assign(n, 0u);
    out.squares.assign(n, 0u);
    out.tilted.resize(n);
    for (int y = 0; y < h; ++y) {
        std::uint32_t row_sum = 0, row_squares = 0;
        const std::size_t above = static_cast<std::size_t>(y) * stride, here = above + stride;
        for (int x = 0; x < w; ++x) {
            const std::uint32_t p = image.at(x, y);
            row_sum += p;
            row_squares += p * p;
            out.sums[here + x + 1] = out.sums[above + x + 1] + row_sum;
            out.squares[here + x + 1] = out.squares[above + x + 1] + row_squares;
        }
    }
    compute_tilted(image, out.sums, out.tilted);
}

}  // namespace cascade
