// Distances between symmetric positive definite matrices (region covariance descriptors, Tuzel et al. 2006),
// written once for the CPU reference and the GPU: row-major d x d doubles, d <= max_spd_dim.
//
// forstner_distance: Foerstner and Moonen's metric sqrt(sum_i ln^2 lambda_i), lambda_i the generalised
//   eigenvalues of A x = lambda B x: B = L L^T (Cholesky), then the eigenvalues of L^-1 A L^-T (symmetric,
//   cyclic Jacobi).
// jbld_divergence: the Jensen-Bregman LogDet divergence (Cherian et al. 2011) log|(A+B)/2| - (log|A| + log|B|)/2,
//   log-determinants by Cholesky.
// Both require A and B positive definite (covariances regularised first); a matrix that is not returns +inf.
// Each is a template on the dimension d (loops of known length, so that on the GPU the matrices stay in registers
// instead of local memory), with a run-time d entry point; both run the same operations in the same order.
#pragma once

#include <cmath>

#include "common/exact_math.hpp"
#include "common/hd.hpp"

namespace cascade {

constexpr int max_spd_dim = 9;

// cholesky: L (lower, row-major) with A = L L^T; false when A is not positive definite.
template <int d>
CASCADE_HD bool cholesky(const double* a, double* l) {
    for (int i = 0; i < d * d; ++i) l[i] = 0;
    for (int j = 0; j < d; ++j) {
        double s = a[j * d + j];
        for (int k = 0; k < j; ++k) s -= l[j * d + k] * l[j * d + k];
        if (!(s > 0)) return false;
        l[j * d + j] = sqrt(s);
        for (int i = j + 1; i < d; ++i) {
            double t = a[i * d + j];
            for (int k = 0; k < j; ++k) t -= l[i * d + k] * l[j * d + k];
            l[i * d + j] = t / l[j * d + j];
        }
    }
    return true;
}

// log_det: ln |A| into `out`; false when A is not positive definite.
template <int d>
CASCADE_HD bool log_det(const double* a, double& out) {
    double l[d * d];
    if (!cholesky<d>(a, l)) return false;
    out = 0;
    for (int i = 0; i < d; ++i) out += 2 * log(l[i * d + i]);
    return true;
}

// jacobi_eigen: the eigenvalues of symmetric `a` (overwritten) into `values` and, when `vectors` is not null,
//   the orthogonal V with a = V diag(values) V^T (row-major, eigenvector k in column k): cyclic Jacobi rotations
//   until the off-diagonal is below 1e-15 of the matrix's norm (at most 64 sweeps). Every step is one rounded
//   IEEE operation (exact_math.hpp: no FMA contraction on the device), so the CPU and the GPU give the same bits.
template <int d>
CASCADE_HD void jacobi_eigen(double* a, double* values, double* vectors) {
    using namespace exact;
    if (vectors)
        for (int i = 0; i < d * d; ++i) vectors[i] = i % (d + 1) == 0 ? 1.0 : 0.0;
    double norm = 0;
    for (int i = 0; i < d * d; ++i) norm = add(norm, mul(a[i], a[i]));
    for (int sweep = 0; sweep < 64; ++sweep) {
        double off = 0;
        for (int p = 0; p < d; ++p)
            for (int q = p + 1; q < d; ++q) off = add(off, mul(a[p * d + q], a[p * d + q]));
        if (off <= mul(1e-30, norm)) break;
        CASCADE_UNROLL
        for (int p = 0; p < d; ++p) {
            CASCADE_UNROLL
            for (int q = p + 1; q < d; ++q) {
                const double apq = a[p * d + q];
                if (apq == 0) continue;
                const double theta = div(sub(a[q * d + q], a[p * d + p]), mul(2.0, apq));
                const double t = div(theta >= 0 ? 1.0 : -1.0, add(fabs(theta), sqrt(add(mul(theta, theta), 1.0))));
                const double c = div(1.0, sqrt(add(mul(t, t), 1.0))), s = mul(t, c);
                const auto rotate = [c, s](double& x, double& y) {  // (x, y) <- (c x - s y, s x + c y)
                    const double x0 = x, y0 = y;
                    x = sub(mul(c, x0), mul(s, y0));
                    y = add(mul(s, x0), mul(c, y0));
                };
                for (int k = 0; k < d; ++k) rotate(a[k * d + p], a[k * d + q]);  // columns p and q
                for (int k = 0; k < d; ++k) rotate(a[p * d + k], a[q * d + k]);  // rows p and q
                if (vectors)
                    for (int k = 0; k < d; ++k) rotate(vectors[k * d + p], vectors[k * d + q]);
            }
        }
    }
    for (int i = 0; i < d; ++i) values[i] = a[i * d + i];
}

template <int d>
CASCADE_HD double forstner_distance(const double* a, const double* b) {
    double l[d * d], m[d * d], w[d * d];
    if (!cholesky<d>(b, l)) return INFINITY;
    // w = L^-1 A (forward substitution on each column), then m = L^-1 w^T = L^-1 A L^-T (A symmetric).
    for (int c = 0; c < d; ++c)
        for (int i = 0; i < d; ++i) {
            double s = a[i * d + c];
            for (int k = 0; k < i; ++k) s -= l[i * d + k] * w[k * d + c];
            w[i * d + c] = s / l[i * d + i];
        }
    for (int c = 0; c < d; ++c)
        for (int i = 0; i < d; ++i) {
            double s = w[c * d + i];
            for (int k = 0; k < i; ++k) s -= l[i * d + k] * m[k * d + c];
            m[i * d + c] = s / l[i * d + i];
        }
    double values[d];
    jacobi_eigen<d>(m, values, nullptr);
    double sum = 0;
    for (int i = 0; i < d; ++i) {
        if (!(values[i] > 0)) return INFINITY;
        sum += log(values[i]) * log(values[i]);
    }
    return sqrt(sum);
}

template <int d>
CASCADE_HD double jbld_divergence(const double* a, const double* b) {
    double mean[d * d];
    for (int i = 0; i < d * d; ++i) mean[i] = (a[i] + b[i]) / 2;
    double lm = 0, la = 0, lb = 0;
    if (!log_det<d>(mean, lm) || !log_det<d>(a, la) || !log_det<d>(b, lb)) return INFINITY;
    return lm - (la + lb) / 2;
}

// spd_distance: Foerstner's metric or the JBLD divergence, by a run-time d (1..max_spd_dim) through the templates.
CASCADE_HD double spd_distance(const double* a, const double* b, int d, bool forstner) {
    switch (d) {
        case 1: return forstner ? forstner_distance<1>(a, b) : jbld_divergence<1>(a, b);
        case 2: return forstner ? forstner_distance<2>(a, b) : jbld_divergence<2>(a, b);
        case 3: return forstner ? forstner_distance<3>(a, b) : jbld_divergence<3>(a, b);
        case 4: return forstner ? forstner_distance<4>(a, b) : jbld_divergence<4>(a, b);
        case 5: return forstner ? forstner_distance<5>(a, b) : jbld_divergence<5>(a, b);
        case 6: return forstner ? forstner_distance<6>(a, b) : jbld_divergence<6>(a, b);
        case 7: return forstner ? forstner_distance<7>(a, b) : jbld_divergence<7>(a, b);
        case 8: return forstner ? forstner_distance<8>(a, b) : jbld_divergence<8>(a, b);
        default: return forstner ? forstner_distance<9>(a, b) : jbld_divergence<9>(a, b);
    }
}

CASCADE_HD double forstner_distance(const double* a, const double* b, int d) { return spd_distance(a, b, d, true); }
CASCADE_HD double jbld_divergence(const double* a, const double* b, int d) { return spd_distance(a, b, d, false); }

}  // namespace cascade
