// Region covariance window evaluation (Tuzel, Porikli and Meer 2008), written once for the host and the device:
// a rectangle's covariance normalised by the detection window's, its 36-vector, the weak learner's projection
// and response, and the cascade view and window functor for run_stages (cascade_eval.hpp).
//
// Sampler contract: s.at(x, y) points at the kCovPlanes int64 sums of grid corner (x, y), x and y multiples of
// kCovGrid (CovGridView, cov_features.hpp; the GPU's sampler reads the same layout in device memory).
//
// For the window at (wx, wy) (a multiple of kCovGrid) and weak learner w:
//   1. D_i: the regularised variance of feature i over the whole window (window_covariance<8>'s diagonal);
//      s_i = 1 / sqrt(D_i).
//   2. C: the regularised covariance of w.rect, C'_ij = C_ij s_i s_j (Tuzel's normalisation by the detection
//      window: invariant to a scaling of any feature, so to contrast), for i <= j (packed, cov_jacobi.hpp).
//   3. A = C' (kCovLogEuclidean) or A = M C' M, M = w.mean_isqrt (kCovTangent); the learner's vector is
//      v = the upper triangle of log A row by row, off-diagonal entries times sqrt(2), log A = V diag(ln l) V^T
//      with every eigenvalue l below kCovMinEigenvalue raised to it first (a guard: the regularisation keeps
//      them far above it).
//   4. p = weights . v + bias, evaluated as trace(W log A) + bias (cov_jacobi.hpp: the Jacobi rotations that
//      diagonalise A carried to W, no eigenvectors); response = step_response(w, p) (hog_eval.hpp), clipped to
//      [-limit, limit].
// A learner of descriptor kCovDescriptorLbpHistogram (model.hpp) reads instead the uniform-LBP histogram of its
// square cell (cov_learner_response: a sampler with LBP bins, CovLbpGridView; p in float as HoG's LBP learners').
// The trainer fits its weights to the vectors of cov_log_vector (a Jacobi with eigenvectors, spd_distance.hpp);
// its projections agree with step 4's to rounding (about 1e-15 relative), and its cascade sums are this file's.
// Exactness: int64 sums, then every double step one rounded IEEE operation in a fixed order (exact_math.hpp,
// the logarithm included), so the CPU detector and the GPU kernels give the same bits.
#pragma once

#include <cstdint>

#include "common/cov_features.hpp"
#include "common/cov_jacobi.hpp"
#include "common/covariance_features.hpp"
#include "common/exact_math.hpp"
#include "common/hd.hpp"
#include "common/hog_eval.hpp"
#include "common/model.hpp"
#include "common/spd_distance.hpp"

namespace cascade {

constexpr double kCovMinEigenvalue = 1e-12;
constexpr double kSqrt2 = 1.4142135623730951;
constexpr double kSqrtHalf = 0.70710678118654752;  // 1 / sqrt(2), rounded

// Step 1: the inverse standard deviations of the features over the window at (wx, wy).
template <class Sampler>
CASCADE_HD void cov_window_scales(const Sampler& s, int wx, int wy, Size window, double scale[kCovFeatures]) {
    double cov[kCovFeatures * kCovFeatures];
    window_covariance<kCovFeatures>(s, wx, wy, window.width, window.height, cov);
    for (int i = 0; i < kCovFeatures; ++i)
        scale[i] = exact::div(1.0, exact::sqrt(cov[i * kCovFeatures + i]));
}

// Step 2: the normalised covariance of `rect` (window coordinates) of the window at (wx, wy), packed.
template <class Sampler>
CASCADE_HD void cov_rect_packed(const Sampler& s, int wx, int wy, Rect rect, const double scale[kCovFeatures],
                                double c[kPackedSize]) {
    double full[kCovFeatures * kCovFeatures];
    window_covariance<kCovFeatures>(s, wx + rect.x, wy + rect.y, rect.width, rect.height, full);
    CASCADE_UNROLL
    for (int i = 0; i < kCovFeatures; ++i)
        CASCADE_UNROLL
        for (int j = i; j < kCovFeatures; ++j)
            c[packed_index(i, j)] = exact::mul(exact::mul(full[i * kCovFeatures + j], scale[i]), scale[j]);
}

// The same, row-major 8x8 (the trainer's).
template <class Sampler>
CASCADE_HD void cov_rect_covariance(const Sampler& s, int wx, int wy, Rect rect, const double scale[kCovFeatures],
                                    double c[kCovFeatures * kCovFeatures]) {
    double packed[kPackedSize];
    cov_rect_packed(s, wx, wy, rect, scale, packed);
    for (int i = 0; i < kCovFeatures; ++i)
        for (int j = 0; j < kCovFeatures; ++j) c[i * kCovFeatures + j] = packed[packed_index(i, j)];
}

// Packed m c m for symmetric m (row-major 8x8 floats) and packed c: a row of m c at a time, then that row's
// entries on and right of the diagonal.
CASCADE_HD void cov_congruence_packed(const float* m, const double* c, double* out) {
    constexpr int d = kCovFeatures;
    CASCADE_UNROLL
    for (int i = 0; i < d; ++i) {
        double t[d];
        CASCADE_UNROLL
        for (int j = 0; j < d; ++j) {
            double sum = 0;
            CASCADE_UNROLL
            for (int k = 0; k < d; ++k)
                sum = exact::add(sum, exact::mul(static_cast<double>(m[i * d + k]), c[packed_index(k, j)]));
            t[j] = sum;
        }
        CASCADE_UNROLL
        for (int j = i; j < d; ++j) {
            double sum = 0;
            CASCADE_UNROLL
            for (int k = 0; k < d; ++k) sum = exact::add(sum, exact::mul(t[k], static_cast<double>(m[k * d + j])));
            out[packed_index(i, j)] = sum;
        }
    }
}

// Step 3 for the trainer: the 36-vector of normalised covariance c (row-major, symmetric; overwritten) under
// `mapping`; mean_isqrt is read for kCovTangent only.
CASCADE_HD void cov_log_vector(std::int32_t mapping, const float* mean_isqrt, double c[kCovFeatures * kCovFeatures],
                               double v[kCovDims]) {
    constexpr int d = kCovFeatures;
    double a[d * d];
    if (mapping == kCovTangent) {
        double packed[kPackedSize], congruent[kPackedSize];
        for (int i = 0; i < d; ++i)
            for (int j = i; j < d; ++j) packed[packed_index(i, j)] = c[i * d + j];
        cov_congruence_packed(mean_isqrt, packed, congruent);
        for (int i = 0; i < d * d; ++i) a[i] = congruent[packed_index(i / d, i % d)];
    } else {
        for (int i = 0; i < d * d; ++i) a[i] = c[i];
    }
    double values[d], vectors[d * d], logs[d];
    jacobi_eigen<d>(a, values, vectors);
    for (int m = 0; m < d; ++m) logs[m] = exact::log(values[m] > kCovMinEigenvalue ? values[m] : kCovMinEigenvalue);
    int k = 0;
    for (int i = 0; i < d; ++i)
        for (int j = i; j < d; ++j, ++k) {
            double sum = 0;
            for (int m = 0; m < d; ++m)
                sum = exact::add(sum, exact::mul(exact::mul(vectors[i * d + m], logs[m]), vectors[j * d + m]));
            v[k] = i == j ? sum : exact::mul(sum, kSqrt2);
        }
}

// Steps 3 and 4's projection: weights . v + bias for the normalised covariance c (packed), as trace(W log A) +
// bias (cov_jacobi.hpp).
CASCADE_HD double cov_projection(const CovWeak& weak, const double c[kPackedSize]) {
    constexpr int d = kCovFeatures;
    double a[kPackedSize], w[kPackedSize];
    if (weak.mapping == kCovTangent) {
        cov_congruence_packed(weak.mean_isqrt, c, a);
    } else {
        CASCADE_UNROLL
        for (int k = 0; k < kPackedSize; ++k) a[k] = c[k];
    }
    CASCADE_UNROLL
    for (int i = 0; i < d; ++i)
        CASCADE_UNROLL
        for (int j = i; j < d; ++j) {
            const double weight = weak.weights[packed_index(i, j)];
            w[packed_index(i, j)] = i == j ? weight : exact::mul(weight, kSqrtHalf);
        }
    jacobi_diagonalise(a, w);
    double dot = 0;
    CASCADE_UNROLL
    for (int m = 0; m < d; ++m) {
        const double l = a[packed_index(m, m)];
        dot = exact::add(dot, exact::mul(exact::log(l > kCovMinEigenvalue ? l : kCovMinEigenvalue), w[packed_index(m, m)]));
    }
    return exact::add(dot, static_cast<double>(weak.bias));
}

CASCADE_HD double cov_response(const CovWeak& weak, double p) {
    const double r = step_response(weak, p), limit = weak.limit;
    return r > limit ? limit : r < -limit ? -limit : r;
}

// The response of `weak` for the window at (wx, wy) whose scales (step 1) are `scale`.
template <class Sampler>
CASCADE_HD double cov_weak_response(const Sampler& s, int wx, int wy, const CovWeak& weak,
                                    const double scale[kCovFeatures]) {
    double c[kPackedSize];
    cov_rect_packed(s, wx, wy, weak.rect, scale, c);
    return cov_response(weak, cov_projection(weak, c));
}

// The response of `weak` as above or, for an LBP-histogram learner (a sampler with LBP bins only; model.hpp),
// cov_response of its cell's dot product (lbp_cell_dot, hog_eval.hpp) plus its bias, in double.
template <class Sampler>
CASCADE_HD double cov_learner_response(const Sampler& s, int wx, int wy, const CovWeak& weak,
                                       const double scale[kCovFeatures]) {
    if constexpr (HasLbpBins<Sampler>::value) {
        if (weak.descriptor == kCovDescriptorLbpHistogram) {
            const float dot = lbp_cell_dot(s, wx, wy, weak.rect, weak.weights, weak.first_bin);
            return cov_response(weak, exact::add(static_cast<double>(dot), static_cast<double>(weak.bias)));
        }
    }
    return cov_weak_response(s, wx, wy, weak, scale);
}

struct CovCascadeView {
    Size window;
    SumPolicy policy = SumPolicy::per_stage;
    int num_stages = 0;
    const Stage* stages = nullptr;
    const CovWeak* weaks = nullptr;
};

inline CovCascadeView view_of(const CovCascade& c) {
    return {c.window, c.policy, static_cast<int>(c.stages.size()), c.stages.data(), c.weaks.data()};
}

// Response of weak learner i of a covariance cascade for the window at (x, y); the window's scales are computed
// once, when the functor is made. A sampler without LBP bins serves only models without LBP-histogram learners.
template <class Sampler>
struct CovWindow {
    const CovCascadeView& cascade;
    const Sampler& sampler;
    int x, y;
    double scale[kCovFeatures];

    CASCADE_HD CovWindow(const CovCascadeView& c, const Sampler& s, int wx, int wy)
        : cascade(c), sampler(s), x(wx), y(wy) {
        cov_window_scales(s, wx, wy, c.window, scale);
    }

    CASCADE_HD double operator()(int i) const { return cov_learner_response(sampler, x, y, cascade.weaks[i], scale); }
};

}  // namespace cascade
