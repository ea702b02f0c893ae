// Sample weights of real AdaBoost over a running sum, and weight trimming.
//
// A sample of class y (+1 positive, -1 negative) with running sum H weighs exp(-y H): the classifier's
// mistakes weigh most. Each class is normalised to total 1/2, so the classes weigh the same whatever the
// sizes of the positive set and of the negative pool.
#pragma once

#include <vector>

namespace cascade::train {

// Weights of one class from its scores (running sums); `label` is +1 or -1. Computed relative to the largest
// exponent, so that long cascades with sums in the hundreds do not overflow.
std::vector<double> class_weights(const std::vector<double>& scores, int label);

// Weight trimming (Friedman, Hastie & Tibshirani 2000): the indices of the heaviest samples that together hold
// at least 1 - `trim` of the total weight, in increasing order. Ties break by index, so the result is
// deterministic. trim = 0 keeps every sample.
std::vector<int> trim_weights(const std::vector<double>& weights, double trim);

}  // namespace cascade::train
