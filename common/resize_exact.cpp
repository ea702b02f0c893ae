// Host side of the bit-exact INTER_LINEAR_EXACT resize: tap tables and a separable full-image resize that
// performs exactly the integer arithmetic of resize_linear_exact_pixel (see resize_exact.hpp).
#include "common/resize_exact.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>

namespace cascade {

namespace {

// Rounds a non-negative value to the nearest integer, ties to even, independently of the FPU rounding mode.
int round_half_even(double value) {
    const double lower = std::floor(value);
    const double rest = value - lower;  // exact: value and lower are within one unit of each other
    auto result = static_cast<int>(lower);
    if (rest > 0.5 || (rest == 0.5 && (result & 1) != 0)) ++result;
    return result;
}

// scale * (d + 0.5) - 0.5 with each operation rounded on its own, as OpenCV's softdouble does. The volatile
// store keeps the compiler from fusing the multiply and the subtraction into one FMA (GCC's default
// -ffp-contract=fast would do so on targets with FMA), which could move pos across an integer boundary.
double source_position(double scale, int d) {
    volatile double product = scale * (static_cast<double>(d) + 0.5);
    return product - 0.5;
}

}  // namespace

std::vector<ResizeTap> linear_exact_taps(int src_len, int dst_len) {
    if (src_len < 1 || dst_len < 1)
        throw std::invalid_argument("linear_exact_taps: lengths must be >= 1 (got " + std::to_string(src_len) +
                                    " -> " + std::to_string(dst_len) + ")");
    // OpenCV passes inv_scale = dsize / ssize to the resize and takes its reciprocal: that double, not
    // src_len / dst_len, is the step (they can differ in the last bit).
    const double inv_scale = static_cast<double>(dst_len) / static_cast<double>(src_len);
    const double scale = 1.0 / inv_scale;

    std::vector<ResizeTap> taps(static_cast<std::size_t>(dst_len));
    for (int d = 0; d < dst_len; ++d) {
        ResizeTap& tap = taps[static_cast<std::size_t>(d)];
        const double pos = source_position(scale, d);
        const double floor_pos = std::floor(pos);
        const int i = static_cast<int>(floor_pos);
        if (i >= 0 && src_len > 1 && i < src_len - 1) {
            const int w1 = round_half_even((pos - floor_pos) * 256.0);  // 0..256; 256 leaves weight0 == 0
            tap.offset0 = i;
            tap.offset1 = i + 1;
            tap.weight1 = static_cast<std::uint16_t>(w1);
            tap.weight0 = static_cast<std::uint16_t>(256 - w1);
        } else {
            // Left of the first sample (or a single sample): the first one; at or beyond the last: the last.
            const int edge = (i >= 0 && src_len > 1) ? src_len - 1 : 0;
            tap.offset0 = edge;
            tap.offset1 = edge;
            tap.weight0 = 256;
            tap.weight1 = 0;
        }
    }
    return taps;
}

void resize_linear_exact(const GrayView& src, GrayImage& dst) {
    if (src.width < 1 || src.height < 1 || src.data == nullptr || dst.width < 1 || dst.height < 1)
        throw std::invalid_argument("resize_linear_exact: empty source or destination (" +
                                    std::to_string(src.width) + "x" + std::to_string(src.height) + " -> " +
                                    std::to_string(dst.width) + "x" + std::to_string(dst.height) + ")");
    dst.pixels.resize(static_cast<std::size_t>(dst.width) * static_cast<std::size_t>(dst.height));

    if (dst.width == src.width && dst.height == src.height) {  // OpenCV copies; the taps would too
        for (int y = 0; y < src.height; ++y)
            std::memcpy(dst.row(y), src.data + static_cast<std::ptrdiff_t>(y) * src.stride,
                        static_cast<std::size_t>(src.width));
        return;
    }

    const std::vector<ResizeTap> xtaps = linear_exact_taps(src.width, dst.width);
    const std::vector<ResizeTap> ytaps = linear_exact_taps(src.height, dst.height);

    // Horizontal results (Q8) of at most two source rows are kept, like OpenCV's two-line ring buffer.
    const auto width = static_cast<std::size_t>(dst.width);
    std::vector<std::uint16_t> lines(2 * width);
    int line_row[2] = {-1, -1};
    auto horizontal = [&](int sy, int slot) {
        const std::uint8_t* s = src.data + static_cast<std::ptrdiff_t>(sy) * src.stride;
        std::uint16_t* out = lines.data() + static_cast<std::size_t>(slot) * width;
        for (std::size_t dx = 0; dx < width; ++dx) {
            const ResizeTap& t = xtaps[dx];
            out[dx] = static_cast<std::uint16_t>(std::uint32_t{t.weight0} * s[t.offset0] +
                                                 std::uint32_t{t.weight1} * s[t.offset1]);
        }
        line_row[slot] = sy;
    };
    // The slot holding row sy, filling a slot that does not hold `keep` if sy is not there yet.
    auto line_for = [&](int sy, int keep) -> const std::uint16_t* {
        int slot = line_row[0] == sy ? 0 : line_row[1] == sy ? 1 : -1;
        if (slot < 0) {
            slot = line_row[0] == keep ? 1 : 0;
            horizontal(sy, slot);
        }
        return lines.data() + static_cast<std::size_t>(slot) * width;
    };

    for (int dy = 0; dy < dst.height; ++dy) {
        const ResizeTap& ty = ytaps[static_cast<std::size_t>(dy)];
        const std::uint16_t* h0 = line_for(ty.offset0, ty.offset1);
        const std::uint16_t* h1 = line_for(ty.offset1, ty.offset0);
        const std::uint32_t w0 = ty.weight0, w1 = ty.weight1;
        std::uint8_t* out = dst.row(dy);
        for (std::size_t dx = 0; dx < width; ++dx)
            out[dx] = static_cast<std::uint8_t>((h0[dx] * w0 + h1[dx] * w1 + (1u << 15)) >> 16);
    }
}

GrayImage level_pixels(const GrayView& image, const PyramidLevel& level) {
    GrayImage scaled(level.size.width, level.size.height);
    resize_linear_exact(image, scaled);
    return scaled;
}

}  // namespace cascade
