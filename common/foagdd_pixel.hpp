// FOAGDD corner measure (Zhang and Sun, IJCV 2020, as the authors' public code computes it; see
// docs/keypoints.md), the per-pixel pieces written once for the CPU reference and the CUDA kernels:
//   - foagdd_pixel: the grey image as the authors' code sees it, reflect-padded by 7 (BORDER_REFLECT) and zero
//     beyond (scipy's convolve2d 'same' fill);
//   - foagdd_response: one filter response |I (*) phi| at a pixel, summed in float with explicit fmaf in a fixed
//     order (column of taps outer, row inner), so that the host and the device round every step alike;
//   - foagdd_disc_offset: the 37 pixels of the 7x7 disc window, row by row;
//   - foagdd_measure: the 8x8 multi-directional structure tensor M over the disc (in double) and
//     det(M) / (tr(M) + eps), det by symmetric elimination without pivoting (M is a Gram matrix: positive
//     semi-definite; a pivot that is not positive means M is singular to double precision, and the measure is 0).
//     Each entry of M sums the disc's 37 products in one fixed order (foagdd_widen, foagdd_disc_sum): every disc row
//     from its centre outwards, then the rows top to bottom. The products of two float responses are exact in
//     double (48 significant bits), so only these sums round; the GPU's dense kernel forms the same row sums once
//     per pixel and reuses them across the disc, which gives the same bits as this per-pixel function.
// The measure grows with the 14th power of intensity (D is linear in I, det M of degree 16, tr M of degree 2):
// the threshold 10^8.4 holds for 0..255 grey input only.
#pragma once

#include <cmath>
#include <cstdint>

#include "common/hd.hpp"
#include "common/image.hpp"

namespace cascade {

constexpr int kFoagddOrientations = 8;  // theta = k pi / 8, k = 0..7: half a circle, as the authors' code
constexpr int kFoagddScales = 3;        // sigma = 1.5, 3, 4.5
constexpr int kFoagddPad = 7;           // reflect padding of the authors' code
constexpr int kFoagddDisc = 37;         // pixels of the 7x7 disc window
constexpr int kFoagddLattice = 15;      // filters are built on [-15, 15]^2
constexpr double kFoagddEps = 2.22e-16;

// Half the width of the disc's row dy, dy = -3..3: rows of 3, 5, 7, 7, 7, 5, 3 pixels.
CASCADE_HD constexpr int foagdd_disc_half(int dy) { return dy >= -1 && dy <= 1 ? 3 : 4 - (dy < 0 ? -dy : dy); }

// Offset (dx, dy) of the disc's j-th pixel, j = 0..36, row-major.
CASCADE_HD void foagdd_disc_offset(int j, int& dx, int& dy) {
    dy = -3;
    for (;;) {
        const int half = foagdd_disc_half(dy);
        if (j < 2 * half + 1) {
            dx = j - half;
            return;
        }
        j -= 2 * half + 1;
        ++dy;
    }
}

// Pixel (x, y) of the padded image; requires image.width, image.height >= kFoagddPad.
CASCADE_HD float foagdd_pixel(const GrayView& image, int x, int y) {
    const int w = image.width, h = image.height;
    if (x < -kFoagddPad || y < -kFoagddPad || x >= w + kFoagddPad || y >= h + kFoagddPad) return 0.f;
    x = x < 0 ? -x - 1 : (x >= w ? 2 * w - x - 1 : x);
    y = y < 0 ? -y - 1 : (y >= h ? 2 * h - y - 1 : y);
    return static_cast<float>(image.at(x, y));
}

// |response| of one filter: taps[(dx + radius) * (2 radius + 1) + dy + radius] (common/foagdd_filters.hpp) against
// pixel(dx, dy), the image around the pixel.
template <class Pixel>
CASCADE_HD float foagdd_response(const float* taps, int radius, const Pixel& pixel) {
    const int n = 2 * radius + 1;
    float sum = 0.f;
    for (int dx = -radius; dx <= radius; ++dx)
        for (int dy = -radius; dy <= radius; ++dy) sum = fmaf(taps[(dx + radius) * n + dy + radius], pixel(dx, dy), sum);
    return fabsf(sum);
}

// Index of M(k, l), k <= l, in the packed upper triangle.
CASCADE_HD constexpr int foagdd_packed(int k, int l) { return k * kFoagddOrientations - k * (k - 1) / 2 + (l - k); }

// det(M) of the packed upper triangle (destroyed): symmetric Gaussian elimination, the pivots' product. Each
// row's factors are m(i, j) times the pivot's reciprocal: 7 divisions instead of 28 (a double division is a long
// instruction sequence on the GPU), which changes the measure's last bits (docs/keypoints.md).
CASCADE_HD double foagdd_det(double* m) {
    constexpr int n = kFoagddOrientations;
    double det = 1.0;
    CASCADE_UNROLL
    for (int i = 0; i < n; ++i) {
        const double pivot = m[foagdd_packed(i, i)];
        if (!(pivot > 0.0)) return 0.0;
        det *= pivot;
        const double inverse = 1.0 / pivot;
        CASCADE_UNROLL
        for (int j = i + 1; j < n; ++j) {
            const double f = m[foagdd_packed(i, j)] * inverse;
            CASCADE_UNROLL
            for (int l = j; l < n; ++l) m[foagdd_packed(j, l)] = fma(-f, m[foagdd_packed(i, l)], m[foagdd_packed(j, l)]);
        }
    }
    return det;
}

// A centred row sum widened by one pixel on each side: (inner + left) + right. Starting from the centre product,
// this gives the disc's row sums over 3, 5 and 7 pixels, each nested in the last.
CASCADE_HD double foagdd_widen(double inner, double left, double right) { return (inner + left) + right; }

// The disc's sum from its rows' sums, top (3 pixels wide) to bottom: r3 r5 r7 r7 r7 r5 r3.
CASCADE_HD double foagdd_disc_sum(const double* rows) {
    double sum = rows[0];
    CASCADE_UNROLL
    for (int r = 1; r < 7; ++r) sum += rows[r];
    return sum;
}

// det(M) / (tr(M) + eps) of the packed upper triangle m (destroyed).
CASCADE_HD double foagdd_tensor_measure(double* m) {
    double trace = 0.0;
    CASCADE_UNROLL
    for (int k = 0; k < kFoagddOrientations; ++k) trace += m[foagdd_packed(k, k)];
    return foagdd_det(m) / (trace + kFoagddEps);
}

// M(k, l) from d(k, j), the response of orientation k at the disc's j-th pixel: the products summed in the
// fixed order above.
template <class Responses>
CASCADE_HD double foagdd_tensor_entry(const Responses& d, int k, int l) {
    const auto product = [&](int j) { return static_cast<double>(d(k, j)) * static_cast<double>(d(l, j)); };
    double rows[7];
    CASCADE_UNROLL
    for (int r = 0, start = 0; r < 7; ++r) {
        const int half = foagdd_disc_half(r - 3), centre = start + half;
        double sum = product(centre);
        for (int w = 1; w <= half; ++w) sum = foagdd_widen(sum, product(centre - w), product(centre + w));
        rows[r] = sum;
        start += 2 * half + 1;
    }
    return foagdd_disc_sum(rows);
}

// The measure det(M) / (tr(M) + eps) from d(k, j).
template <class Responses>
CASCADE_HD double foagdd_measure(const Responses& d) {
    constexpr int n = kFoagddOrientations;
    double m[n * (n + 1) / 2];
    for (int k = 0; k < n; ++k)
        for (int l = k; l < n; ++l) m[foagdd_packed(k, l)] = foagdd_tensor_entry(d, k, l);
    return foagdd_tensor_measure(m);
}

}  // namespace cascade
