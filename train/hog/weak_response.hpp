// The response of a HoG weak learner given its projection (block_svm.hpp) of every training sample: how the
// learner turns p = weights . descriptor + bias into the value it adds to the stage sum (common/model.hpp).
//
//   - discrete AdaBoost (bins 0; Zhu et al., Bilgic): fires when p >= 0; with e the weighted error, the vote
//     is alpha = 1/2 ln((1 - e) / e) (e clamped to 1e-10), the response +alpha or -alpha;
//   - real AdaBoost (bins 2..kHogMaxBins; Schapire and Singer's domain partitioning): the cuts split the
//     samples' projections into `bins` parts of equal weight (weighted quantiles; fewer where projections
//     tie), and bin k responds 1/2 ln((W+_k + eps) / (W-_k + eps)), with W+_k, W-_k the weight of the
//     positives and negatives in it and eps = 1 / (2 n) of the total weight (Schapire and Singer's smoothing).
// The score that picks the best candidate: the weighted error (discrete), or Z = 2 sum_k sqrt(W+_k W-_k), the
// factor the boosting loss shrinks by (real). Weights need not be normalised.
#pragma once

#include <vector>

#include "common/model.hpp"

namespace cascade::train::hog {

// Sets weak's cuts, responses and slope (0) from the projections; returns the score (lower is better).
// Requires projections, labels (+1 / -1) and weights of the same size, bins 0 or 2..kHogMaxBins.
double fit_response(HogWeak& weak, const std::vector<float>& projections, const std::vector<int>& labels,
                    const std::vector<double>& weights, int bins);

// The real-AdaBoost bins for a covariance weak learner (train/cov), bins 2..kHogMaxBins: the same cuts,
// responses and score; its slope is set to 0.
double fit_bins(CovWeak& weak, const std::vector<float>& projections, const std::vector<int>& labels,
                const std::vector<double>& weights, int bins);

}  // namespace cascade::train::hog
