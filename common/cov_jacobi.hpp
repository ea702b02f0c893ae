// Symmetric 8x8 matrices packed as their upper triangle (36 doubles, row by row: the order of a covariance's
// 36-vector, cov_eval.hpp), and the Jacobi diagonalisation the covariance detector runs per weak learner:
// written once for the host and the device.
//
// Why packed and why no eigenvectors: a weak learner needs p = sum_k weights[k] v[k], v the upper triangle of
// log A (off-diagonal entries times sqrt(2)). That is trace(W log A) with W symmetric, W_ii = weights[ii],
// W_ij = weights[ij] / sqrt(2), and with A = V diag(l) V^T, p = sum_m ln(l_m) (V^T W V)_mm. So the rotations
// that diagonalise A are applied to W as well (W <- R^T W R) instead of being accumulated into V: two packed
// matrices (72 doubles) instead of A, V and the products (the 8x8 Jacobi with eigenvectors took 6.6 KB of local
// memory per GPU thread).
// Order: round-robin (7 rounds of 4 rotations on disjoint index pairs, every pair once a sweep), so that the
// four angles of a round are independent (a thread overlaps their divisions and square roots) and every loop
// is unrolled to constant indices (the matrices stay in registers). Each step is one rounded IEEE operation
// (exact_math.hpp): the CPU and the GPU give the same bits.
#pragma once

#include <cmath>

#include "common/exact_math.hpp"
#include "common/hd.hpp"

namespace cascade {

constexpr int kPackedSide = 8;
constexpr int kPackedSize = kPackedSide * (kPackedSide + 1) / 2;  // 36

// Index of entry (i, j) of a packed symmetric matrix, either triangle.
CASCADE_HD constexpr int packed_index(int i, int j) {
    return i <= j ? i * kPackedSide - i * (i - 1) / 2 + (j - i) : j * kPackedSide - j * (j - 1) / 2 + (i - j);
}

// The round-robin schedule (the circle method: 7 fixed, 0..6 turning): round r pairs {r, 7} and
// {(r + k) % 7, (r - k) % 7} for k = 1..3. Index `end` 0: the pair's smaller index, 1: its larger.
constexpr int kJacobiRounds = 7, kJacobiPairs = 4;

CASCADE_HD constexpr int jacobi_pair(int round, int k, int end) {
    const int u = k == 0 ? round : (round + k) % 7, v = k == 0 ? 7 : (round - k + 7) % 7;
    return (end == 0) == (u < v) ? u : v;
}

// Rows and columns p, q of packed x outside the 2x2 block: x_kp <- c x_kp - s x_kq, x_kq <- s x_kp + c x_kq.
CASCADE_HD void rotate_outside(double* x, int p, int q, double c, double s) {
    using namespace exact;
    CASCADE_UNROLL
    for (int k = 0; k < kPackedSide; ++k) {
        if (k == p || k == q) continue;
        const double xp = x[packed_index(k, p)], xq = x[packed_index(k, q)];
        x[packed_index(k, p)] = sub(mul(c, xp), mul(s, xq));
        x[packed_index(k, q)] = add(mul(s, xp), mul(c, xq));
    }
}

// x <- R^T x R for the rotation R of (p, q) (R_pp = R_qq = c, R_pq = s, R_qp = -s).
CASCADE_HD void rotate_similar(double* x, int p, int q, double c, double s) {
    using namespace exact;
    rotate_outside(x, p, q, c, s);
    const double pp = x[packed_index(p, p)], qq = x[packed_index(q, q)], pq = x[packed_index(p, q)];
    const double cc = mul(c, c), ss = mul(s, s), cs = mul(c, s), cs2 = mul(2.0, cs);
    x[packed_index(p, p)] = add(sub(mul(cc, pp), mul(cs2, pq)), mul(ss, qq));
    x[packed_index(q, q)] = add(add(mul(ss, pp), mul(cs2, pq)), mul(cc, qq));
    x[packed_index(p, q)] = add(mul(cs, sub(pp, qq)), mul(sub(cc, ss), pq));
}

// The rotation that zeroes a_pq (Rutishauser's: t = tan of the angle, the smaller root), as (c, s, t); t = 0
// and nothing to do where a_pq is zero already.
struct JacobiRotation {
    double c = 1, s = 0, t = 0;
};

CASCADE_HD JacobiRotation jacobi_rotation(const double* a, int p, int q) {
    using namespace exact;
    const double apq = a[packed_index(p, q)];
    if (apq == 0) return {};
    const double theta = div(sub(a[packed_index(q, q)], a[packed_index(p, p)]), mul(2.0, apq));
    const double t = div(theta >= 0 ? 1.0 : -1.0, add(fabs(theta), sqrt(add(mul(theta, theta), 1.0))));
    const double c = div(1.0, sqrt(add(mul(t, t), 1.0)));
    return {c, mul(t, c), t};
}

// Diagonalises packed symmetric a (its diagonal then holds the eigenvalues) by round-robin Jacobi sweeps until
// the off-diagonal's squared norm is at most 1e-30 of the matrix's (at most 64 sweeps), applying every rotation
// to packed symmetric w too: w ends as V^T w V, a = V diag(a) V^T.
CASCADE_HD void jacobi_diagonalise(double* a, double* w) {
    using namespace exact;
    double diagonal = 0, off = 0;
    CASCADE_UNROLL
    for (int i = 0; i < kPackedSide; ++i)
        CASCADE_UNROLL
        for (int j = i; j < kPackedSide; ++j) {
            const double square = mul(a[packed_index(i, j)], a[packed_index(i, j)]);
            if (i == j)
                diagonal = add(diagonal, square);
            else
                off = add(off, square);
        }
    const double limit = mul(1e-30, add(diagonal, mul(2.0, off)));
    for (int sweep = 0; sweep < 64 && off > limit; ++sweep) {
        CASCADE_UNROLL
        for (int r = 0; r < kJacobiRounds; ++r) {
            JacobiRotation rotation[kJacobiPairs];
            CASCADE_UNROLL
            for (int k = 0; k < kJacobiPairs; ++k)
                rotation[k] = jacobi_rotation(a, jacobi_pair(r, k, 0), jacobi_pair(r, k, 1));
            CASCADE_UNROLL
            for (int k = 0; k < kJacobiPairs; ++k) {
                const int p = jacobi_pair(r, k, 0), q = jacobi_pair(r, k, 1);
                const JacobiRotation& g = rotation[k];
                if (g.t == 0) continue;
                rotate_outside(a, p, q, g.c, g.s);
                const double shift = mul(g.t, a[packed_index(p, q)]);
                a[packed_index(p, p)] = sub(a[packed_index(p, p)], shift);
                a[packed_index(q, q)] = add(a[packed_index(q, q)], shift);
                a[packed_index(p, q)] = 0;
                rotate_similar(w, p, q, g.c, g.s);
            }
        }
        off = 0;
        CASCADE_UNROLL
        for (int i = 0; i < kPackedSide; ++i)
            CASCADE_UNROLL
            for (int j = i + 1; j < kPackedSide; ++j) off = add(off, mul(a[packed_index(i, j)], a[packed_index(i, j)]));
    }
}

}  // namespace cascade
