// Real AdaBoost weak learners over LBP codes by domain partitioning (Schapire & Singer 1999): the 256 codes
// partition the samples; a code's response is h = 1/2 ln((W+ + eps) / (W- + eps)) from the positive and
// negative weight W+, W- of the samples with that code. The feature chosen is the one whose partition gives
// the smallest normaliser Z = sum over codes of W+ exp(-h) + W- exp(h), the bound on the training error that
// the boosting step minimises. eps (smoothing) keeps responses finite on codes that one class never shows.
#pragma once

#include <array>
#include <vector>

#include "common/model.hpp"
#include "train/lbp/code_bins.hpp"
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

// How a weak learner's responses are fitted.
struct TableFit {
    CodeBins bins = code_bins(kLbpCodes);  // the partition: the codes of one bin share their response
    double smoothing = 20.0;               // eps = smoothing / number of samples
    double shrinkage = 1.0;  // responses times this, in (0, 1]: boosting's learning rate (smaller steps let
                             // more weak learners share the work)
    // Each bin's response also times n / (n + bin_prior), n the number of samples in the bin: a bin that a
    // few heavy samples fill (late in boosting, the last hard positives) is pulled towards 0 whatever their
    // weight, which eps cannot do. 0: off.
    double bin_prior = 0.0;
};

// Chooses the feature on `selection` (the trimmed samples; features evaluated in parallel, ties to the lowest
// index) by the smallest Z of its fitted responses, and fits its responses on `all`, eps = smoothing / number
// of samples in `all`.
LbpWeakFit fit_lbp_weak(const CodeTable& codes, const WeightedSlots& selection, const WeightedSlots& all,
                        const TableFit& table, int threads);

}  // namespace cascade::train::lbp
