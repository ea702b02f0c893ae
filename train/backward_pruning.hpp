// Direct backward pruning (Zhang & Viola, "Multiple-instance pruning for learning efficient cascade
// detectors", NIPS 2007): the thresholds of a trained cascade set from positives it was not fitted to.
//
// The final threshold keeps all but the floor(alpha * n) positives with the lowest final sums; each earlier
// stage's threshold is the lowest running sum, at that stage, among the positives the final threshold keeps.
// The cascade then keeps exactly the positives the full classifier keeps, and rejects everything else as
// early as those positives allow. Thresholds are floats no larger than the sums they keep.
//
// With acceptance thresholds, a positive whose running sum reaches its stage's acceptance threshold is decided
// there: no later threshold can drop it (its later sums count as +inf). Each threshold stays below its stage's
// acceptance threshold, and finite (a stage that no kept positive reaches undecided gets the largest float below
// its acceptance threshold, or the largest float).
#pragma once

#include <vector>

namespace cascade::train {

// sums[i][t]: running sum of positive i after stage t (every positive has the same number of stages, >= 1).
// accept: one acceptance threshold per stage (+inf: none), or empty for none at all.
// Returns one threshold per stage. Requires at least one positive.
std::vector<float> backward_pruning_thresholds(const std::vector<std::vector<double>>& sums, double alpha,
                                               const std::vector<float>& accept = {});

}  // namespace cascade::train
