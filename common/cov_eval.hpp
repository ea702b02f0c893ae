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
//      window: invariant to a scaling of any feature, so to contrast), computed for i <= j and mirrored.
//   3. A = C' (kCovLogEuclidean) or A = M C' M, M = w.mean_isqrt (kCovTangent), upper triangle mirrored;
//      A = V diag(l) V^T by Jacobi (spd_distance.hpp jacobi_eigen); log A = V diag(ln l) V^T, every l below
//      kCovMinEigenvalue raised to it first (a guard: the regularisation keeps them far above it);
//      v = the upper triangle of log A row by row, off-diagonal entries times sqrt(2).
//   4. p = sum_k weights[k] v[k] (k = 0..35 in order) + bias; response = step_response(w, p) (hog_eval.hpp),
//      clipped to [-limit, limit].
// Exactness: int64 sums, then every double step one rounded IEEE operation in a fixed order (exact_math.hpp,
// the logarithm included), so the CPU detector, the trainer and the GPU kernels give the same bits.
#pragma once

#include <cstdint>

#include "common/cov_features.hpp"
#include "common/covariance_features.hpp"
#include "common/exact_math.hpp"
#include "common/hd.hpp"
#include "common/hog_eval.hpp"
#include "common/model.hpp"
#include "common/spd_distance.hpp"

namespace cascade {

constexpr double kCovMinEigenvalue = 1e-12;
constexpr double kSqrt2 = 1.4142135623730951;

// Step 1: the inverse standard deviations of the features over the window at (wx, wy).
template <class Sampler>
CASCADE_HD void cov_window_scales(const Sampler& s, int wx, int wy, Size window, double scale[kCovFeatures]) {
    double cov[kCovFeatures * kCovFeatures];
    window_covariance<kCovFeatures>(s, wx, wy, window.width, window.height, cov);
    for (int i = 0; i < kCovFeatures; ++i)
        scale[i] = exact::div(1.0, exact::sqrt(cov[i * kCovFeatures + i]));
}

// Step 2: the normalised covariance of `rect` (window coordinates) of the window at (wx, wy).
template <class Sampler>
CASCADE_HD void cov_rect_covariance(const Sampler& s, int wx, int wy, Rect rect, const double scale[kCovFeatures],
                                    double c[kCovFeatures * kCovFeatures]) {
    window_covariance<kCovFeatures>(s, wx + rect.x, wy + rect.y, rect.width, rect.height, c);
    for (int i = 0; i < kCovFeatures; ++i)
        for (int j = i; j < kCovFeatures; ++j)
            c[i * kCovFeatures + j] = c[j * kCovFeatures + i] =
                exact::mul(exact::mul(c[i * kCovFeatures + j], scale[i]), scale[j]);
}

// m c m for symmetric m and c (row-major 8x8), its upper triangle mirrored.
CASCADE_HD void cov_congruence(const float* m, const double* c, double* out) {
    constexpr int d = kCovFeatures;
    double t[d * d];
    for (int i = 0; i < d; ++i)
        for (int j = 0; j < d; ++j) {
            double sum = 0;
            for (int k = 0; k < d; ++k) sum = exact::add(sum, exact::mul(static_cast<double>(m[i * d + k]), c[k * d + j]));
            t[i * d + j] = sum;
        }
    for (int i = 0; i < d; ++i)
        for (int j = i; j < d; ++j) {
            double sum = 0;
            for (int k = 0; k < d; ++k) sum = exact::add(sum, exact::mul(t[i * d + k], static_cast<double>(m[k * d + j])));
            out[i * d + j] = out[j * d + i] = sum;
        }
}

// Step 3: the 36-vector of normalised covariance c (overwritten) under `mapping`; mean_isqrt is read for
// kCovTangent only. The trainer maps its samples with this same function.
CASCADE_HD void cov_log_vector(std::int32_t mapping, const float* mean_isqrt, double c[kCovFeatures * kCovFeatures],
                               double v[kCovDims]) {
    constexpr int d = kCovFeatures;
    double a[d * d];
    if (mapping == kCovTangent)
        cov_congruence(mean_isqrt, c, a);
    else
        for (int i = 0; i < d * d; ++i) a[i] = c[i];
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

// Step 4: the projection and the response.
CASCADE_HD double cov_projection(const CovWeak& weak, const double v[kCovDims]) {
    double dot = 0;
    for (int k = 0; k < kCovDims; ++k) dot = exact::add(dot, exact::mul(static_cast<double>(weak.weights[k]), v[k]));
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
    double c[kCovFeatures * kCovFeatures], v[kCovDims];
    cov_rect_covariance(s, wx, wy, weak.rect, scale, c);
    cov_log_vector(weak.mapping, weak.mean_isqrt, c, v);
    return cov_response(weak, cov_projection(weak, v));
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
// once, when the functor is made.
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

    CASCADE_HD double operator()(int i) const { return cov_weak_response(sampler, x, y, cascade.weaks[i], scale); }
};

}  // namespace cascade
