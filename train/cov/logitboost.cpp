#include "train/cov/logitboost.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "common/spd_distance.hpp"

namespace cascade::train::cov {

WorkingSet working_set(const std::vector<double>& sums, const std::vector<int>& labels) {
    WorkingSet s;
    s.z.resize(sums.size());
    s.w.resize(sums.size());
    for (std::size_t i = 0; i < sums.size(); ++i) {
        const double p = 1.0 / (1.0 + std::exp(-2.0 * sums[i]));
        const double target = labels[i] > 0 ? 1.0 : 0.0;
        s.w[i] = std::max(p * (1.0 - p), 1e-12);
        s.z[i] = std::clamp((target - p) / s.w[i], -kMaxWorkingResponse, kMaxWorkingResponse);
    }
    return s;
}

namespace {

constexpr int kMaxUnknowns = 46;  // 45 coefficients (a 9x9 covariance's vector) and the intercept

// Solves the m x m system (row-major, symmetric positive definite) for the right-hand side in place.
template <int m>
bool solve(const double* a, double* rhs) {
    double l[m * m];
    if (!cholesky<m>(a, l)) return false;
    for (int i = 0; i < m; ++i) {  // L y = rhs
        double s = rhs[i];
        for (int k = 0; k < i; ++k) s -= l[i * m + k] * rhs[k];
        rhs[i] = s / l[i * m + i];
    }
    for (int i = m - 1; i >= 0; --i) {  // L^T x = y
        double s = rhs[i];
        for (int k = i + 1; k < m; ++k) s -= l[k * m + i] * rhs[k];
        rhs[i] = s / l[i * m + i];
    }
    return true;
}

}  // namespace

std::vector<double> weighted_least_squares(const std::vector<float>& x, int k, const std::vector<double>& z,
                                           const std::vector<double>& w, double ridge, double& residual) {
    if (k < 1 || k + 1 > kMaxUnknowns) throw std::invalid_argument("weighted_least_squares: k must be 1..45");
    const int m = k + 1;
    std::vector<double> a(static_cast<std::size_t>(m * m), 0.0), rhs(kMaxUnknowns, 0.0);
    std::vector<double> row(static_cast<std::size_t>(m));
    double total = 0.0;
    for (std::size_t i = 0; i < z.size(); ++i) {
        for (int j = 0; j < k; ++j) row[static_cast<std::size_t>(j)] = x[i * static_cast<std::size_t>(k) + j];
        row[static_cast<std::size_t>(k)] = 1.0;
        total += w[i];
        for (int r = 0; r < m; ++r) {
            const double wr = w[i] * row[static_cast<std::size_t>(r)];
            rhs[static_cast<std::size_t>(r)] += wr * z[i];
            for (int c = 0; c <= r; ++c) a[static_cast<std::size_t>(r * m + c)] += wr * row[static_cast<std::size_t>(c)];
        }
    }
    for (int r = 0; r < m; ++r) {
        for (int c = 0; c < r; ++c) a[static_cast<std::size_t>(c * m + r)] = a[static_cast<std::size_t>(r * m + c)];
        if (r < k) a[static_cast<std::size_t>(r * m + r)] += ridge * total;
    }
    // One fixed size (a 46 x 46 system padded with the identity) keeps the solver a single instantiation.
    std::vector<double> padded(static_cast<std::size_t>(kMaxUnknowns * kMaxUnknowns), 0.0);
    for (int r = 0; r < kMaxUnknowns; ++r)
        for (int c = 0; c < kMaxUnknowns; ++c)
            padded[static_cast<std::size_t>(r * kMaxUnknowns + c)] =
                r < m && c < m ? a[static_cast<std::size_t>(r * m + c)] : (r == c ? 1.0 : 0.0);
    std::vector<double> solution(rhs);
    if (!solve<kMaxUnknowns>(padded.data(), solution.data())) solution.assign(kMaxUnknowns, 0.0);
    solution.resize(static_cast<std::size_t>(m));
    residual = 0.0;
    for (std::size_t i = 0; i < z.size(); ++i) {
        double g = solution[static_cast<std::size_t>(k)];
        for (int j = 0; j < k; ++j) g += solution[static_cast<std::size_t>(j)] * x[i * static_cast<std::size_t>(k) + j];
        residual += w[i] * (z[i] - g) * (z[i] - g);
    }
    return solution;
}

}  // namespace cascade::train::cov
