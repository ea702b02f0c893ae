// Real AdaBoost weak learners over LBP codes by domain partitioning (Schapire & Singer 1999): the 256 codes
// partition the samples; a code's response is h = 1/2 ln((W+ + eps) / (W- + eps)) from the positive and
// negative weight W+, W- of the samples with that code. The feature chosen is the one whose partition gives
// the smallest normaliser Z = sum over codes of W+ exp(-h) + W- exp(h), the bound on the training error that
// the boosting step minimises. eps (smoothing) keeps responses finite on codes that one class never shows.
#pragma once

#include <array>
#include <vector>

#include "common/model.hpp"
#include "train/lbp/code_table.hpp"

namespace cascade::train::lbp {

// Samples of both classes by slot, with their weights.
struct WeightedSlots {
    std::vector<int> positives;
    std::vector<double> positive_weights;
    std::vector<int> negatives;
    std::vector<double> negative_weights;
};

struct LbpWeakFit {
    int feature = -1;  // index in the pool
    std::array<float, kLbpCodes> responses{};
    double z = 0.0;      // normaliser on the samples the feature was chosen on
    double error = 0.0;  // weighted error of sign(h) on all samples, as a fraction of their weight
};

// Chooses the feature on `selection` (the trimmed samples; features evaluated in parallel, ties to the lowest
// index) and fits its responses on `all` with eps = smoothing / number of samples in `all`, times `shrinkage`
// (in (0, 1]: boosting's learning rate; smaller steps let more weak learners share the work).
LbpWeakFit fit_lbp_weak(const CodeTable& codes, const WeightedSlots& selection, const WeightedSlots& all,
                        double smoothing, double shrinkage, int threads);

}  // namespace cascade::train::lbp
