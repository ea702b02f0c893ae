// The weighted Karcher (Frechet) mean of symmetric positive definite matrices under the affine-invariant
// metric, as Tuzel, Porikli and Meer compute it for each LogitBoost round (PAMI 2008, Sec. 3.2, after Pennec
// et al. 2006): the mean mu minimises sum_i w_i dist^2(mu, X_i); starting from the weighted arithmetic mean,
// each iteration maps the points to the tangent space at mu, averages them there with the weights and maps the
// average back:
//   mu <- mu^1/2 exp( sum_i w_i log(mu^-1/2 X_i mu^-1/2) / sum_i w_i ) mu^1/2
// until the tangent step's Frobenius norm is below `tolerance` or after `max_iterations` iterations.
#pragma once

#include <vector>

namespace cascade::train::cov {

struct MeanReport {
    int iterations = 0;
    double last_step = 0.0;  // Frobenius norm of the last tangent step
};

// `points`: n row-major d x d SPD matrices, one after another (n * d * d doubles); `weights`: n values >= 0 with
// a positive sum. The mean into `mu` (d * d). d is 3..9.
MeanReport karcher_mean(const std::vector<double>& points, const std::vector<double>& weights, int d,
                        std::vector<double>& mu, int max_iterations = 20, double tolerance = 1e-9);

// mu^-1/2 (d * d), what tangent_vector (common/spd_functions.hpp) takes.
std::vector<double> inverse_sqrt(const std::vector<double>& mu, int d);

}  // namespace cascade::train::cov
