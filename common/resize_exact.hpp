// Bit-exact bilinear resize of 8-bit grayscale images: the same pixels as OpenCV 4.x
// cv::resize(src, dst, dsize, 0, 0, cv::INTER_LINEAR_EXACT) for CV_8UC1, without linking OpenCV.
//
// Why exactness matters: cv::CascadeClassifier builds every pyramid level with INTER_LINEAR_EXACT, and a
// single pixel that differs by one grey level can flip an LBP bit or a Haar sum and so a detection. The CPU
// detector must reproduce OpenCV's windows exactly, and the GPU detector must reproduce the CPU's.
//
// The arithmetic (all integer once the taps exist, hence identical on host and device):
//   * taps, per destination column (and separately per destination row), computed once on the host in IEEE
//     double exactly as OpenCV does: scale = 1 / (dst_len / src_len); pos = scale * (d + 0.5) - 0.5;
//     i = floor(pos). If 0 <= i < src_len - 1 the tap reads source samples i and i + 1 with the weights
//     256 - w and w, where w = round_half_even((pos - i) * 256) (Q8, 0..256). Otherwise (pos left of the
//     first sample, at or right of the last, or src_len == 1) the tap is the clamped border sample with
//     weight 256.
//   * horizontal pass: h = w0 * s[x0] + w1 * s[x1]               (Q8, at most 255 * 256, no saturation)
//   * vertical pass:   v = h(y0) * w0 + h(y1) * w1                (Q16, at most 255 << 16)
//   * result:          (v + 2^15) >> 16                           (round half up; always fits in uint8)
// A border row or column with weight 256 reduces to OpenCV's own rounding of an unweighted line, so a
// single formula covers the interior and the borders.
#pragma once

#include <cstdint>
#include <vector>

#include "common/hd.hpp"
#include "common/image.hpp"
#include "common/pyramid.hpp"

namespace cascade {

// One destination column (or row) of the linear bit-exact resize: two source indices (equal at the
// borders) and their Q8 weights, weight0 + weight1 == 256.
struct ResizeTap {
    int offset0 = 0;
    int offset1 = 0;
    std::uint16_t weight0 = 256;
    std::uint16_t weight1 = 0;
};

// The taps of one axis, dst_len of them, for resizing src_len samples to dst_len (both >= 1; throws
// std::invalid_argument otherwise). Host only: uses IEEE double arithmetic, rounded step by step (never fused).
std::vector<ResizeTap> linear_exact_taps(int src_len, int dst_len);

// One destination pixel from its column tap `tx` and row tap `ty`; depends on no other destination pixel,
// so a GPU thread can compute it on its own. `src` may live in device memory when called on the device.
CASCADE_HD std::uint8_t resize_linear_exact_pixel(const GrayView& src, const ResizeTap& tx, const ResizeTap& ty) {
    const std::uint32_t h0 = std::uint32_t{tx.weight0} * src.at(tx.offset0, ty.offset0) +
                             std::uint32_t{tx.weight1} * src.at(tx.offset1, ty.offset0);
    const std::uint32_t h1 = std::uint32_t{tx.weight0} * src.at(tx.offset0, ty.offset1) +
                             std::uint32_t{tx.weight1} * src.at(tx.offset1, ty.offset1);
    const std::uint32_t v = h0 * ty.weight0 + h1 * ty.weight1;
    return static_cast<std::uint8_t>((v + (1u << 15)) >> 16);
}

// dst = cv::resize(src, Size(dst.width, dst.height), 0, 0, INTER_LINEAR_EXACT). The caller sets dst.width
// and dst.height (>= 1; any ratio, up or down, per axis) before the call; dst.pixels is (re)sized here.
// src must be non-empty; its stride may exceed its width. Throws std::invalid_argument on empty sizes.
void resize_linear_exact(const GrayView& src, GrayImage& dst);

// The pixels of one pyramid level of `image`: resize_linear_exact to level.size.
GrayImage level_pixels(const GrayView& image, const PyramidLevel& level);

}  // namespace cascade
