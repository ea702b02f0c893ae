// Functions of symmetric positive definite matrices for the covariance trainer (host code; row-major d x d
// doubles, d <= max_spd_dim): V diag(f(values)) V^T for a scalar f, with A = V diag(values) V^T by
// common/spd_distance.hpp's jacobi_eigen (the detector's own decomposition): the logarithm, the exponential
// and powers (p = 1/2 and -1/2: the square root and its inverse), products and congruences. What the
// detector computes of a covariance (its 36-vector) is common/cov_eval.hpp's; the trainer needs these for the
// means it stores in the model (riemannian_mean.hpp).
#pragma once

#include <cmath>

#include "common/spd_distance.hpp"

namespace cascade::train::cov {

// spd_function: out = V f(L) V^T for symmetric `a` (not changed; `out` may not alias it).
template <int d, class F>
void spd_function(const double* a, F f, double* out) {
    double m[d * d], values[d], vectors[d * d];
    for (int i = 0; i < d * d; ++i) m[i] = a[i];
    jacobi_eigen<d>(m, values, vectors);
    for (int i = 0; i < d; ++i) values[i] = f(values[i]);
    for (int i = 0; i < d; ++i)
        for (int j = i; j < d; ++j) {
            double s = 0;
            for (int k = 0; k < d; ++k) s += vectors[i * d + k] * values[k] * vectors[j * d + k];
            out[i * d + j] = out[j * d + i] = s;
        }
}

template <int d>
void spd_log(const double* a, double* out) {
    spd_function<d>(a, [](double x) { return std::log(x); }, out);
}

template <int d>
void spd_exp(const double* a, double* out) {
    spd_function<d>(a, [](double x) { return std::exp(x); }, out);
}

template <int d>
void spd_power(const double* a, double p, double* out) {
    spd_function<d>(a, [p](double x) { return std::pow(x, p); }, out);
}

// spd_product: out = a b (d x d; out aliases neither).
template <int d>
void spd_product(const double* a, const double* b, double* out) {
    for (int i = 0; i < d; ++i)
        for (int j = 0; j < d; ++j) {
            double s = 0;
            for (int k = 0; k < d; ++k) s += a[i * d + k] * b[k * d + j];
            out[i * d + j] = s;
        }
}

// spd_congruence: out = s c s for symmetric s and c, made exactly symmetric (the mean of the two rounded
//   triangles), as the eigen-decomposition that follows assumes.
template <int d>
void spd_congruence(const double* s, const double* c, double* out) {
    double t[d * d];
    spd_product<d>(s, c, t);
    spd_product<d>(t, s, out);
    for (int i = 0; i < d; ++i)
        for (int j = i + 1; j < d; ++j) out[i * d + j] = out[j * d + i] = (out[i * d + j] + out[j * d + i]) / 2;
}

}  // namespace cascade::train::cov
