// The CPU reference of region covariance search (common/covariance_features.hpp): the distance of every window
// of a size, `step` pixels apart, to a target's covariance, as a ScoreMap (lower is better; peaks as for the
// TM_SQDIFF modes).
#pragma once

#include <vector>

#include "common/covariance_integrals.hpp"
#include "match/score_map.hpp"

namespace cascade::match {

// target_covariance: the regularised covariance of a whole image (the template), d x d row-major.
std::vector<double> target_covariance(const CovarianceIntegrals& templ);

// covariance_map: requires window no larger than the frame, window area in [2, 2^20], target of the frame's
//   layout. Positions x = 0, step, 2 step, ... while the window fits (likewise y).
ScoreMap covariance_map(const CovarianceIntegrals& frame, Size window, const std::vector<double>& target,
                        CovMetric metric, int step, int threads = 0);

}  // namespace cascade::match
