// The region covariance family's feature planes (Tuzel, Porikli and Meer 2008): eight integer features per
// pixel and their first- and second-order integral images at the corners of a kCovGrid grid (model.hpp).
// Written once for the host and the device; the covariance of a rectangle is covariance_features.hpp's
// window_covariance<8> over CovGridView.
//
// Features of pixel (x, y) of a pyramid level, all integers, so that the CPU and the GPU build the same bits:
//   0 x, 1 y                  the pixel's coordinates in the level
//   2 |Ix|, 3 |Iy|            centred differences [-1 0 1] (hog_gradient: coordinates clamped), <= 255
//   4 magnitude               round(sqrt(Ix^2 + Iy^2)) by an exact integer square root, <= 361
//   5 |Ixx|, 6 |Iyy|          second differences [1 -2 1], coordinates clamped, <= 510
//   7 angle                   atan(|Ix| / |Iy|) in [0, pi/2] as round(64 |Ix| / (|Ix| + |Iy|)), 0..64
//                             (0 for a zero gradient): a monotone stand-in for the arctangent from one
//                             integer division (within 4 degrees of 64 atan(|Ix|/|Iy|) / (pi/2) units)
// Integrals: corner (gx, gy) of the grid holds, over the pixels x < kCovGrid gx, y < kCovGrid gy, the 8 feature
// sums and the 36 sums of products f_i f_j (i <= j, row-major), interleaved: 44 int64 = 352 bytes a corner.
// Exactness: features are below 2^13 (levels up to 8192 pixels a side), so every sum over a level is below
// 2^52, and window_covariance's N sum(f_i f_j) - sum(f_i) sum(f_j) over a rectangle of N <= 2^16 pixels
// (CovCascade's window limit) is below 2^58: exact in int64.
#pragma once

#include <cstdint>
#include <vector>

#include "common/covariance_features.hpp"
#include "common/hd.hpp"
#include "common/hog_features.hpp"
#include "common/image.hpp"
#include "common/lbp_uniform.hpp"
#include "common/model.hpp"

namespace cascade {

constexpr int kCovPlanes = kCovFeatures + kCovDims;  // 44 sums a corner
constexpr int kCovMaxLevelSide = 8192;

// The eight features of pixel (x, y) of `image` into f.
CASCADE_HD void cov_pixel_features(const GrayView& image, int x, int y, int f[kCovFeatures]) {
    const GradientPair g = hog_gradient(image, x, y);
    const int xl = x > 0 ? x - 1 : 0, xr = x + 1 < image.width ? x + 1 : x;
    const int yu = y > 0 ? y - 1 : 0, yd = y + 1 < image.height ? y + 1 : y;
    const int centre = 2 * static_cast<int>(image.at(x, y));
    const int ixx = static_cast<int>(image.at(xl, y)) + static_cast<int>(image.at(xr, y)) - centre;
    const int iyy = static_cast<int>(image.at(x, yu)) + static_cast<int>(image.at(x, yd)) - centre;
    const int ax = g.gx < 0 ? -g.gx : g.gx, ay = g.gy < 0 ? -g.gy : g.gy;
    f[0] = x;
    f[1] = y;
    f[2] = ax;
    f[3] = ay;
    f[4] = static_cast<int>(hog_isqrt_round(static_cast<std::uint32_t>(ax * ax + ay * ay)));
    f[5] = ixx < 0 ? -ixx : ixx;
    f[6] = iyy < 0 ? -iyy : iyy;
    f[7] = ax + ay == 0 ? 0 : (128 * ax + ax + ay) / (2 * (ax + ay));  // round(64 ax / (ax + ay))
}

// The 44 products and sums of one pixel's features added to `sums` (the order of the integral planes).
CASCADE_HD void add_cov_pixel(const int f[kCovFeatures], std::int64_t sums[kCovPlanes]) {
    int k = 0;
    for (; k < kCovFeatures; ++k) sums[k] += f[k];
    for (int i = 0; i < kCovFeatures; ++i)
        for (int j = i; j < kCovFeatures; ++j, ++k) sums[k] += static_cast<std::int64_t>(f[i]) * f[j];
}

// The integrals of one level at the grid's corners: at(x, y) for x, y multiples of kCovGrid (a window's
// position, plus a rectangle's corner), the sampler of cov_eval.hpp and window_covariance.
struct CovGridView {
    const std::int64_t* data = nullptr;
    int columns = 0;  // corners per row: width / kCovGrid + 1

    CASCADE_HD const std::int64_t* at(int x, int y) const {
        return data + (static_cast<std::size_t>(y / kCovGrid) * columns + x / kCovGrid) * kCovPlanes;
    }
};

// The same with the level's uniform-LBP bin plane, which LBP-histogram learners read (common/lbp_uniform.hpp).
struct CovLbpGridView : CovGridView {
    LbpBinView bins;

    CASCADE_HD std::uint8_t lbp_bin(int x, int y) const { return bins.lbp_bin(x, y); }
};

// A level's planes on the host: (width / kCovGrid + 1) x (height / kCovGrid + 1) corners of kCovPlanes sums and,
// for a model with LBP-histogram learners, the bin plane (else empty).
struct CovPlanes {
    Size size;  // of the level
    int columns = 0, rows = 0;
    std::vector<std::int64_t> sums;
    LbpBinPlane bins;

    CovGridView sampler() const { return {sums.data(), columns}; }
    CovLbpGridView lbp_sampler() const { return {{sums.data(), columns}, bins.view()}; }
};

// The planes of `image` (any size >= 1x1; InputError-free: levels wider or taller than kCovMaxLevelSide throw
// std::invalid_argument, which the detectors refuse before), with the bin plane when `with_lbp_bins`.
void compute_cov_planes(const GrayView& image, CovPlanes& out, bool with_lbp_bins = false);

}  // namespace cascade
