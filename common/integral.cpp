#include "common/integral.hpp"

namespace cascade {

void compute_integral(const GrayView& image, IntegralImage& out) {
    const int w = image.width, h = image.height, stride = w + 1;
    out.size = image.size();
    out.sums.assign(static_cast<std::size_t>(stride) * (h + 1), 0u);
    for (int y = 0; y < h; ++y) {
        std::uint32_t row_sum = 0;
        const std::uint32_t* above = &out.sums[static_cast<std::size_t>(y) * stride];
        std::uint32_t* here = &out.sums[static_cast<std::size_t>(y + 1) * stride];
        for (int x = 0; x < w; ++x) {
            row_sum += image.at(x, y);
            here[x + 1] = above[x + 1] + row_sum;
        }
    }
}

void compute_square_integral(const GrayView* planes, int count, SquareIntegralImage& out) {
    const int w = planes[0].width, h = planes[0].height, stride = w + 1;
    out.size = planes[0].size();
    out.sums.assign(static_cast<std::size_t>(stride) * (h + 1), 0u);
    for (int y = 0; y < h; ++y) {
        std::uint64_t row_sum = 0;
        const std::uint64_t* above = &out.sums[static_cast<std::size_t>(y) * stride];
        std::uint64_t* here = &out.sums[static_cast<std::size_t>(y + 1) * stride];
        for (int x = 0; x < w; ++x) {
            for (int c = 0; c < count; ++c) row_sum += std::uint64_t(planes[c].at(x, y)) * planes[c].at(x, y);
            here[x + 1] = above[x + 1] + row_sum;
        }
    }
}

}  // namespace cascade
