// LogitBoost's pieces (Friedman, Hastie and Tibshirani 2000, Algorithm 3), as Tuzel, Porikli and Meer boost
// regressions on the tangent vectors of covariances (PAMI 2008, Algorithm 1):
//   p_i = e^F_i / (e^F_i + e^-F_i)                    (F: the stage sum of sample i so far)
//   w_i = p_i (1 - p_i),  z_i = (y*_i - p_i) / w_i      (y* = 1 for a positive, 0 for a negative)
//   g   = argmin sum_i w_i (z_i - g(x_i))^2            (g linear: a . x + b, weighted least squares)
//   F_i <- F_i + g(x_i) / 2
// z is clipped to [-kMaxWorkingResponse, kMaxWorkingResponse] (Friedman et al. advise 2..4: for a sample
// already far on its side, w -> 0 and z -> +-inf) and w floored at machine scale, as their Sec. 6 suggests.
#pragma once

#include <vector>

namespace cascade::train::cov {

constexpr double kMaxWorkingResponse = 4.0;

struct WorkingSet {
    std::vector<double> z;  // working responses
    std::vector<double> w;  // weights (not normalised)
};

// From the sums F and the labels (+1 / -1).
WorkingSet working_set(const std::vector<double>& sums, const std::vector<int>& labels);

// The weighted least-squares fit of z on x (n rows of k floats, sample-major): k coefficients, then the
// intercept, minimising sum_i w_i (z_i - a . x_i - b)^2 + ridge * |a|^2 * sum_i w_i (the ridge keeps the normal
// equations solvable where x is degenerate: a flat sub-window's vector is constant). k <= 45. Also returns the
// weighted residual sum of squares through `residual` (the fit's score: lower is better).
std::vector<double> weighted_least_squares(const std::vector<float>& x, int k, const std::vector<double>& z,
                                           const std::vector<double>& w, double ridge, double& residual);

}  // namespace cascade::train::cov
