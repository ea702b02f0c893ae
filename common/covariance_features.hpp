// Region covariance descriptors (Tuzel et al. 2006, as in Asan 2019): per-pixel integer features, their
// first- and second-order integral images (exact int64), and a window's covariance from four corner reads per
// plane. Written once for the CPU reference and the GPU.
//
// Features of a pixel, all integers: the colour channels (R, G, B; or the grey value I for a grey image) and
// the 3x3 Sobel derivatives of the grey image (OpenCV's kernels, borders reflected as BORDER_REFLECT_101):
//   basic (the thesis):  [R, G, B, Ix, Iy]                                  (d = 5; grey: [I, Ix, Iy], d = 3)
//   extended (Tuzel):    [x, y, R, G, B, |Ix|, |Iy|, |Ixx|, |Iyy|]          (d = 9; grey: d = 7)
// (x, y from the image's centre: covariances do not depend on the origin, and the sums stay smaller.)
// Integral planes, interleaved per pixel: the d features, then the d(d+1)/2 products f_i f_j (i <= j), row-major
// over (i, j). A window's numerator N * sum(f_i f_j) - sum(f_i) sum(f_j) is exact in int64 for windows of up to
// 2^20 pixels in images up to 4096 wide and high (every feature within 2^11 in magnitude: 2^20 * 2^20 * 2^22 <
// 2^63), so the covariance is that integer
// divided by N (N - 1), one rounding. Flat windows are singular: covariance_regularisation is added to the
// diagonal of every covariance (the variance of rounding to integers, 1/12: below what an integer feature can
// resolve).
#pragma once

#include <cstdint>

#include "common/exact_math.hpp"
#include "common/hd.hpp"
#include "common/spd_distance.hpp"
#include "common/template_score.hpp"

namespace cascade {

constexpr int max_cov_features = 9;
constexpr double covariance_regularisation = 1.0 / 12;

struct CovarianceLayout {
    int channels = 3;  // 1 (grey) or 3 (colour)
    bool extended = false;

    CASCADE_HD int dim() const { return (extended ? 6 : 2) + channels; }
    CASCADE_HD int planes() const { return dim() + dim() * (dim() + 1) / 2; }
};

CASCADE_HD int reflect101(int i, int n) {
    if (n == 1) return 0;
    while (i < 0 || i >= n) i = i < 0 ? -i : 2 * n - 2 - i;
    return i;
}

// pixel_features: the layout's features of (x, y) into f; colour planes in OpenCV's B, G, R order, `grey` the
//   grey image of the same size (for one channel, the same plane).
CASCADE_HD void pixel_features(const MatchPlanes& colour, const GrayView& grey, CovarianceLayout layout, int x,
                               int y, int* f) {
    int p[3][3];
    for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx)
            p[dy + 1][dx + 1] = grey.at(reflect101(x + dx, grey.width), reflect101(y + dy, grey.height));
    // Columns smoothed down (1 2 1) and rows smoothed across: Sobel's separable kernels.
    const int col0 = p[0][0] + 2 * p[1][0] + p[2][0], col1 = p[0][1] + 2 * p[1][1] + p[2][1];
    const int col2 = p[0][2] + 2 * p[1][2] + p[2][2], row0 = p[0][0] + 2 * p[0][1] + p[0][2];
    const int row1 = p[1][0] + 2 * p[1][1] + p[1][2], row2 = p[2][0] + 2 * p[2][1] + p[2][2];
    const int ix = col2 - col0, iy = row2 - row0;
    int n = 0;
    if (layout.extended) {
        f[n++] = x - grey.width / 2;  // centred: |x| <= 2^11 for images up to 4096 pixels wide
        f[n++] = y - grey.height / 2;
    }
    for (int c = layout.channels - 1; c >= 0; --c) f[n++] = colour.planes[c].at(x, y);
    if (!layout.extended) {
        f[n++] = ix;
        f[n++] = iy;
        return;
    }
    const int ixx = col0 - 2 * col1 + col2, iyy = row0 - 2 * row1 + row2;
    f[n++] = ix < 0 ? -ix : ix;
    f[n++] = iy < 0 ? -iy : iy;
    f[n++] = ixx < 0 ? -ixx : ixx;
    f[n++] = iyy < 0 ? -iyy : iyy;
}

// The interleaved integral planes of an image: (width + 1) x (height + 1) pixels of layout.planes() int64 each.
struct CovarianceIntegralView {
    const std::int64_t* data = nullptr;
    int stride = 0;  // pixels per row (width + 1)
    CovarianceLayout layout;

    CASCADE_HD const std::int64_t* at(int x, int y) const {
        return data + (static_cast<std::size_t>(y) * stride + x) * layout.planes();
    }
};

// window_covariance: the regularised covariance (row-major d x d) of the w x h window at (x, y); requires
//   w * h >= 2 and d == v.layout.dim() (a template, so that the GPU keeps the sums in registers). Any view
//   whose at(x, y) points at the d + d(d+1)/2 interleaved sums of corner (x, y) will do (cov_features.hpp's
//   grid of corners too). Each step is one rounded operation (exact_math.hpp): the GPU gives the CPU's bits.
template <int d, class View>
CASCADE_HD void window_covariance(const View& v, int x, int y, int w, int h, double* cov) {
    constexpr int planes = d + d * (d + 1) / 2;
    const std::int64_t *a = v.at(x, y), *b = v.at(x + w, y), *c = v.at(x, y + h), *e = v.at(x + w, y + h);
    std::int64_t sums[planes];
    CASCADE_UNROLL
    for (int k = 0; k < planes; ++k) sums[k] = e[k] - b[k] - c[k] + a[k];
    const std::int64_t n = static_cast<std::int64_t>(w) * h;
    const double scale = exact::div(1.0, exact::mul(static_cast<double>(n), static_cast<double>(n - 1)));
    int k = d;
    CASCADE_UNROLL
    for (int i = 0; i < d; ++i) {
        CASCADE_UNROLL
        for (int j = i; j < d; ++j, ++k) {
            const double value = exact::mul(static_cast<double>(n * sums[k] - sums[i] * sums[j]), scale);
            cov[i * d + j] = cov[j * d + i] = i == j ? exact::add(value, covariance_regularisation) : value;
        }
    }
}

// The same for the layout's d at run time (3, 5, 7 or 9).
CASCADE_HD void window_covariance(const CovarianceIntegralView& v, int x, int y, int w, int h, double* cov) {
    switch (v.layout.dim()) {
        case 3: return window_covariance<3>(v, x, y, w, h, cov);
        case 5: return window_covariance<5>(v, x, y, w, h, cov);
        case 7: return window_covariance<7>(v, x, y, w, h, cov);
        default: return window_covariance<9>(v, x, y, w, h, cov);
    }
}

enum class CovMetric { forstner, jbld };

// window_distance: the distance of the w x h window at (x, y) to `target` (spd_target of a regularised covariance,
//   d x d; d == v.layout.dim()).
template <int d>
CASCADE_HD double window_distance(const CovarianceIntegralView& v, int x, int y, int w, int h, const SpdTarget& target,
                                  CovMetric metric) {
    double cov[d * d];
    window_covariance<d>(v, x, y, w, h, cov);
    return metric == CovMetric::forstner ? forstner_distance<d>(cov, target) : jbld_divergence<d>(cov, target);
}

// The same for the layout's d at run time.
CASCADE_HD double window_distance(const CovarianceIntegralView& v, int x, int y, int w, int h, const SpdTarget& target,
                                  CovMetric metric) {
    switch (v.layout.dim()) {
        case 3: return window_distance<3>(v, x, y, w, h, target, metric);
        case 5: return window_distance<5>(v, x, y, w, h, target, metric);
        case 7: return window_distance<7>(v, x, y, w, h, target, metric);
        default: return window_distance<9>(v, x, y, w, h, target, metric);
    }
}

}  // namespace cascade
