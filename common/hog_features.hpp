// HoG gradient features: the orientation bin and magnitude of each pixel, and the integral histograms (one
// exclusive integral image per bin) that block descriptors are read from (common/hog_eval.hpp).
//
// Exactness. The CPU detector, the trainer and the GPU kernels must see the same bits, so everything up to
// the integral histograms is integer arithmetic, written once here for host and device:
//   - gradient: centred [-1, 0, 1] on the 8-bit grayscale image, gx = I(x+1, y) - I(x-1, y) and
//     gy = I(x, y+1) - I(x, y-1), coordinates clamped to the image (a border pixel takes a one-sided
//     difference, as clamp addressing of a texture gives on the GPU). No smoothing, no gamma (but Dalal-Triggs
//     blocks may read the gradients of hog_gamma's levels).
//   - orientation: unsigned, 9 bins of 20 degrees over [0, 180) of atan2(gy, gx) (y pointing down the
//     image). (gx, gy) is folded into the half plane gy > 0 or (gy == 0 and gx >= 0) by negation; the bin is
//     the number of the 8 boundary directions 20, 40, ..., 160 degrees the vector has reached, each tested by
//     the sign of an integer cross product with the boundary direction scaled by 2^15 and rounded. No atan2,
//     no table; a vector within ~1e-3 degrees of a boundary may fall either side, identically everywhere.
//   - magnitude: hard voting of round(16 * sqrt(gx^2 + gy^2)), a fixed-point value with 4 fractional bits
//     (at most kHogMaxMagnitude = 5770), from an integer square root (a float estimate corrected exactly).
//   - integral histograms: uint32 sums that wrap around. A rectangle's bin sum, a difference of four
//     corners, is exact whenever the true sum is below 2^32, i.e. for any rectangle of up to
//     2^32 / 5770 = 744,000 pixels: every block of every window. A cell of the largest block of a 64x128
//     window (32x64 pixels) sums to at most 11.8e6 < 2^24, so it also converts to float exactly.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "common/hd.hpp"
#include "common/image.hpp"
#include "common/lbp_uniform.hpp"
#include "common/model.hpp"

namespace cascade {

// Fixed-point scale of gradient magnitudes: 16 units per grey level.
constexpr int kHogMagnitudeScale = 16;
// round(16 * sqrt(255^2 + 255^2)).
constexpr std::uint32_t kHogMaxMagnitude = 5770;

// Orientation bin (0..8) of the gradient (gx, gy), |gx|, |gy| <= 255; 0 for the zero vector. The constants
// are round(2^15 * cos(20k deg)) and round(2^15 * sin(20k deg)) for the boundaries k = 1..8.
CASCADE_HD int hog_orientation_bin(int gx, int gy) {
    if (gx == 0 && gy == 0) return 0;
    if (gy < 0 || (gy == 0 && gx < 0)) {
        gx = -gx;
        gy = -gy;
    }
    auto reached = [gx, gy](std::int32_t c, std::int32_t s) { return c * gy - s * gx >= 0 ? 1 : 0; };
    return reached(30792, 11207) + reached(25102, 21063) + reached(16384, 28378) + reached(5690, 32270) +
           reached(-5690, 32270) + reached(-16384, 28378) + reached(-25102, 21063) + reached(-30792, 11207);
}

// round(sqrt(m)) for m < 2^26, exactly: a float estimate, then integer corrections.
CASCADE_HD std::uint32_t hog_isqrt_round(std::uint32_t m) {
    std::uint32_t r = static_cast<std::uint32_t>(std::sqrt(static_cast<float>(m)));
    while (r * r > m) --r;
    while ((r + 1) * (r + 1) <= m) ++r;
    return m > r * r + r ? r + 1 : r;  // sqrt(m) >= r + 1/2  <=>  m > r^2 + r  (integers)
}

// Fixed-point magnitude round(16 * sqrt(gx^2 + gy^2)).
CASCADE_HD std::uint32_t hog_magnitude(int gx, int gy) {
    const auto n = static_cast<std::uint32_t>(gx * gx + gy * gy);
    return hog_isqrt_round(n * (kHogMagnitudeScale * kHogMagnitudeScale));
}

struct HogVote {
    int bin = 0;
    std::uint32_t magnitude = 0;
};

// A pixel's gradient.
struct GradientPair {
    std::int16_t gx = 0, gy = 0;
};

// Scale of the gamma-corrected levels: round(8 sqrt(255 v)) for a grey level v, 0..2040: OpenCV's square-root
// gamma (HOGDescriptor's gammaCorrection, sqrt(v)) times 8 sqrt(255), rounded, so that gradients stay exact
// integers (within +-2040: squared magnitudes below 2^24, exact in float) finer than a grey level everywhere
// (the square root's slope falls below 1/8 of its scale above v = 64: round(sqrt(255 v)) would merge levels).
constexpr int kHogGammaScale = 8;

CASCADE_HD int hog_gamma(int v) {
    return static_cast<int>(hog_isqrt_round(static_cast<std::uint32_t>(255 * kHogGammaScale * kHogGammaScale * v)));
}

// The clamped centred differences at pixel (x, y) of the levels `level(image.at(x, y))`.
template <class Level>
CASCADE_HD GradientPair hog_gradient_of(const GrayView& image, int x, int y, const Level& level) {
    const int xl = x > 0 ? x - 1 : 0, xr = x + 1 < image.width ? x + 1 : x;
    const int yu = y > 0 ? y - 1 : 0, yd = y + 1 < image.height ? y + 1 : y;
    return {static_cast<std::int16_t>(level(image.at(xr, y)) - level(image.at(xl, y))),
            static_cast<std::int16_t>(level(image.at(x, yd)) - level(image.at(x, yu)))};
}

// The gradient of pixel (x, y) of `image`: clamped centred differences, of the levels hog_gamma(I) if `gamma`.
CASCADE_HD GradientPair hog_gradient(const GrayView& image, int x, int y, bool gamma = false) {
    return hog_gradient_of(image, x, y, [gamma](int v) { return gamma ? hog_gamma(v) : v; });
}

// The vote of pixel (x, y) of `image`.
CASCADE_HD HogVote hog_pixel_vote(const GrayView& image, int x, int y) {
    const GradientPair g = hog_gradient(image, x, y);
    return {hog_orientation_bin(g.gx, g.gy), hog_magnitude(g.gx, g.gy)};
}

// Read-only view of integral histograms in the host layout: (width+1) x (height+1) corners, each holding the
// kHogBins sums of the pixels above and left of it, bins adjacent ("interleaved"), so that one corner's nine
// bins share a cache line. Any type with the same at(x, y, bin) is a sampler for common/hog_eval.hpp (a GPU
// kernel may use planes or textures instead).
struct HogIntegralView {
    const std::uint32_t* data = nullptr;
    int stride = 0;  // elements per corner row: (width + 1) * kHogBins for a full table

    CASCADE_HD std::uint32_t at(int x, int y, int bin) const { return data[y * stride + x * kHogBins + bin]; }
};

struct HogIntegral {
    Size size;  // of the source image; the table has (width+1) x (height+1) corners of kHogBins sums
    std::vector<std::uint32_t> sums;

    HogIntegralView view() const { return {sums.data(), (size.width + 1) * kHogBins}; }
};

// The integral histograms of `image` (any size >= 1x1).
void compute_hog_integral(const GrayView& image, HogIntegral& out);

// Read-only view of a gradient plane: `stride` pairs per row.
struct GradientView {
    const GradientPair* data = nullptr;
    int stride = 0;

    CASCADE_HD GradientPair gradient(int x, int y) const { return data[y * stride + x]; }
};

// Every pixel's gradient (of the gamma-corrected levels, or not): what Dalal and Triggs' blocks
// (common/dalal_triggs_descriptor.hpp) read.
struct GradientPlane {
    Size size;
    std::vector<GradientPair> pairs;

    GradientView view() const { return {pairs.data(), size.width}; }
};

void compute_gradient_plane(const GrayView& image, GradientPlane& out, bool gamma = false);

// What the host reads for a HoG window: the integral histograms (at), the gradient planes (gradient) and the
// uniform-LBP bins (lbp_bin) of one image or pyramid level, the sampler of common/hog_eval.hpp,
// common/dalal_triggs_descriptor.hpp and common/lbp_uniform.hpp.
struct HogSampler {
    HogIntegralView integral;
    GradientView gradients;
    GradientView gamma_gradients;  // of the gamma-corrected levels (hog_gamma)
    LbpBinView lbp_bins;           // empty (data null) unless the level's planes were built with them

    CASCADE_HD std::uint32_t at(int x, int y, int bin) const { return integral.at(x, y, bin); }
    CASCADE_HD GradientPair gradient(int x, int y) const { return gradients.gradient(x, y); }
    CASCADE_HD GradientPair gamma_gradient(int x, int y) const { return gamma_gradients.gradient(x, y); }
    CASCADE_HD std::uint8_t lbp_bin(int x, int y) const { return lbp_bins.lbp_bin(x, y); }
};

// A level's HoG planes on the host.
struct HogPlanes {
    HogIntegral integral;
    GradientPlane gradients, gamma_gradients;
    LbpBinPlane lbp_bins;  // empty unless built with_lbp_bins

    HogSampler sampler() const {
        return {integral.view(), gradients.view(), gamma_gradients.view(),
                lbp_bins.bins.empty() ? LbpBinView{} : lbp_bins.view()};
    }
};

// The planes of `image`; the LBP bin plane only `with_lbp_bins` (a model with LBP-histogram learners), else empty.
void compute_hog_planes(const GrayView& image, HogPlanes& out, bool with_lbp_bins = false);

}  // namespace cascade
