#include "train/cov/riemannian_mean.hpp"

#include <cmath>
#include <stdexcept>

#include "train/cov/spd_functions.hpp"

namespace cascade::train::cov {

namespace {

template <int d>
MeanReport mean_of(const std::vector<double>& points, const std::vector<double>& weights, double* mu,
                   int max_iterations, double tolerance) {
    constexpr int dd = d * d;
    const std::size_t n = weights.size();
    double total = 0.0;
    for (double w : weights) total += w;
    for (int k = 0; k < dd; ++k) mu[k] = 0.0;
    for (std::size_t i = 0; i < n; ++i)
        for (int k = 0; k < dd; ++k) mu[k] += weights[i] / total * points[i * dd + static_cast<std::size_t>(k)];
    MeanReport report;
    for (; report.iterations < max_iterations; ++report.iterations) {
        double root[dd], inv_root[dd], step[dd] = {}, v[dd], t[dd];
        spd_power<d>(mu, 0.5, root);
        spd_power<d>(mu, -0.5, inv_root);
        for (std::size_t i = 0; i < n; ++i) {
            if (weights[i] == 0.0) continue;
            spd_congruence<d>(inv_root, &points[i * dd], t);
            spd_log<d>(t, v);
            for (int k = 0; k < dd; ++k) step[k] += weights[i] / total * v[k];
        }
        double norm = 0.0;
        for (double s : step) norm += s * s;
        report.last_step = std::sqrt(norm);
        spd_exp<d>(step, v);
        spd_congruence<d>(root, v, mu);
        if (report.last_step < tolerance) {
            ++report.iterations;
            break;
        }
    }
    return report;
}

template <int d>
void inverse_sqrt_of(const std::vector<double>& mu, std::vector<double>& out) {
    spd_power<d>(mu.data(), -0.5, out.data());
}

}  // namespace

MeanReport karcher_mean(const std::vector<double>& points, const std::vector<double>& weights, int d,
                        std::vector<double>& mu, int max_iterations, double tolerance) {
    mu.assign(static_cast<std::size_t>(d * d), 0.0);
    switch (d) {
        case 3: return mean_of<3>(points, weights, mu.data(), max_iterations, tolerance);
        case 5: return mean_of<5>(points, weights, mu.data(), max_iterations, tolerance);
        case 7: return mean_of<7>(points, weights, mu.data(), max_iterations, tolerance);
        case 8: return mean_of<8>(points, weights, mu.data(), max_iterations, tolerance);
        case 9: return mean_of<9>(points, weights, mu.data(), max_iterations, tolerance);
        default: throw std::invalid_argument("karcher_mean: d must be 3, 5, 7, 8 or 9");
    }
}

std::vector<double> inverse_sqrt(const std::vector<double>& mu, int d) {
    std::vector<double> out(mu.size());
    switch (d) {
        case 3: inverse_sqrt_of<3>(mu, out); break;
        case 5: inverse_sqrt_of<5>(mu, out); break;
        case 7: inverse_sqrt_of<7>(mu, out); break;
        case 8: inverse_sqrt_of<8>(mu, out); break;
        case 9: inverse_sqrt_of<9>(mu, out); break;
        default: throw std::invalid_argument("inverse_sqrt: d must be 3, 5, 7, 8 or 9");
    }
    return out;
}

}  // namespace cascade::train::cov
