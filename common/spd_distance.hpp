// Distances between symmetric positive definite matrices (region covariance descriptors, Tuzel et al. 2006),
// written once for the CPU reference and the GPU: row-major d x d doubles, d <= max_spd_dim.
//
// forstner_distance: Foerstner and Moonen's metric sqrt(sum_i ln^2 lambda_i), lambda_i the generalised
//   eigenvalues of A x = lambda B x: B = L L^T (Cholesky), then the eigenvalues of L^-1 A L^-T (symmetric,
//   cyclic Jacobi).
// jbld_divergence: the Jensen-Bregman LogDet divergence (Cherian et al. 2011) log|(A+B)/2| - (log|A| + log|B|)/2,
//   log-determinants by Cholesky.
// Both require A and B positive definite (covariances regularised first); a matrix that is not returns +inf.
// A search compares every window with one target B: SpdTarget holds what the distances need of B (L^-1 and
// ln |B|), computed once, so that a window costs no Cholesky of B and no division by L's diagonal.
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
//   until the off-diagonal's squared norm is below `tolerance` times the matrix's (1e-30: 1e-15 of the norm; at
//   most 64 sweeps). Every step is one rounded IEEE operation (exact_math.hpp: no FMA contraction on the device),
//   so the CPU and the GPU give the same bits.
template <int d>
CASCADE_HD void jacobi_eigen(double* a, double* values, double* vectors, double tolerance = 1e-30) {
    using namespace exact;
    if (vectors)
        for (int i = 0; i < d * d; ++i) vectors[i] = i % (d + 1) == 0 ? 1.0 : 0.0;
    double norm = 0;
    for (int i = 0; i < d * d; ++i) norm = add(norm, mul(a[i], a[i]));
    for (int sweep = 0; sweep < 64; ++sweep) {
        double off = 0;
        for (int p = 0; p < d; ++p)
            for (int q = p + 1; q < d; ++q) off = add(off, mul(a[p * d + q], a[p * d + q]));
        if (off <= mul(tolerance, norm)) break;
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

// SpdTarget: the fixed matrix B of a search, d x d row-major in the first d * d entries of each array.
struct SpdTarget {
    double matrix[max_spd_dim * max_spd_dim] = {};          // B
    double inverse_factor[max_spd_dim * max_spd_dim] = {};  // L^-1, lower triangular (B = L L^T)
    double log_det = 0;                                     // ln |B|
    bool positive = false;                                  // B is positive definite (else every distance is +inf)
};

template <int d>
CASCADE_HD SpdTarget spd_target(const double* b) {
    SpdTarget t;
    double l[d * d];
    for (int i = 0; i < d * d; ++i) t.matrix[i] = b[i];
    t.positive = cholesky<d>(b, l) && log_det<d>(b, t.log_det);
    if (!t.positive) return t;
    for (int c = 0; c < d; ++c)  // column c of L^-1: forward substitution on the unit vector
        for (int i = c; i < d; ++i) {
            double s = i == c ? 1 : 0;
            for (int k = c; k < i; ++k) s -= l[i * d + k] * t.inverse_factor[k * d + c];
            t.inverse_factor[i * d + c] = s / l[i * d + i];
        }
    return t;
}

// The generalised eigenvalues stop at an off-diagonal of 1e-10 of the norm: each is then off by about that squared
// over its gap (Jacobi's quadratic convergence); on real 5-D windows the distances stay within 2e-14 relative of a
// stop at 1e-15, for 33 rotations a window instead of 39.
constexpr double forstner_jacobi_tolerance = 1e-20;

template <int d>
CASCADE_HD double forstner_distance(const double* a, const SpdTarget& b) {
    using namespace exact;
    if (!b.positive) return INFINITY;
    // w = L^-1 A, then m = w L^-T = L^-1 A L^-T, symmetric: its lower triangle, mirrored. Products only.
    const double* f = b.inverse_factor;
    double w[d * d], m[d * d];
    CASCADE_UNROLL
    for (int i = 0; i < d; ++i) {
        CASCADE_UNROLL
        for (int c = 0; c < d; ++c) {
            double s = 0;
            CASCADE_UNROLL
            for (int k = 0; k <= i; ++k) s = add(s, mul(f[i * d + k], a[k * d + c]));
            w[i * d + c] = s;
        }
    }
    CASCADE_UNROLL
    for (int i = 0; i < d; ++i) {
        CASCADE_UNROLL
        for (int c = 0; c <= i; ++c) {
            double s = 0;
            CASCADE_UNROLL
            for (int k = 0; k <= c; ++k) s = add(s, mul(w[i * d + k], f[c * d + k]));
            m[i * d + c] = m[c * d + i] = s;
        }
    }
    double values[d];
    jacobi_eigen<d>(m, values, nullptr, forstner_jacobi_tolerance);
    double sum = 0;
    for (int i = 0; i < d; ++i) {
        if (!(values[i] > 0)) return INFINITY;
        sum += log(values[i]) * log(values[i]);
    }
    return sqrt(sum);
}

template <int d>
CASCADE_HD double jbld_divergence(const double* a, const SpdTarget& b) {
    if (!b.positive) return INFINITY;
    double mean[d * d];
    for (int i = 0; i < d * d; ++i) mean[i] = (a[i] + b.matrix[i]) / 2;
    double lm = 0, la = 0;
    if (!log_det<d>(mean, lm) || !log_det<d>(a, la)) return INFINITY;
    return lm - (la + b.log_det) / 2;
}

template <int d>
CASCADE_HD double forstner_distance(const double* a, const double* b) {
    return forstner_distance<d>(a, spd_target<d>(b));
}

template <int d>
CASCADE_HD double jbld_divergence(const double* a, const double* b) {
    return jbld_divergence<d>(a, spd_target<d>(b));
}

// spd_target for a run-time d (1..max_spd_dim).
inline SpdTarget spd_target(const double* b, int d) {
    switch (d) {
        case 1: return spd_target<1>(b);
        case 2: return spd_target<2>(b);
        case 3: return spd_target<3>(b);
        case 4: return spd_target<4>(b);
        case 5: return spd_target<5>(b);
        case 6: return spd_target<6>(b);
        case 7: return spd_target<7>(b);
        case 8: return spd_target<8>(b);
        default: return spd_target<9>(b);
    }
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
