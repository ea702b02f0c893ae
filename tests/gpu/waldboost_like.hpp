// A WaldBoost-style model for tests that need no training data: a running-sum cascade with one weak
// learner per stage, built from a per-stage LBP cascade (OpenCV's frontal face).
//
// How the thresholds are chosen: the source's weak learners, in order, become the stages; every window at
// `sample_step` pixels of each sample frame (full resolution) is evaluated on the CPU with the shared window
// code, and stage k's threshold is the running sum below which a share 1 - keep(k) of the windows still alive
// before stage k fall (an empirical quantile; where ties straddle it, the nearer of the two possible shares):
// keep(0) = first_keep, keep(1..7) = early_keep, later keep(k) = late_keep. On vtest/basketball frames about
// 9% of windows survive the first weak learner (its two leaf values allow 100% or 9%), 3% the first eight and
// 0.4% all of them: most windows are rejected early, as in a WaldBoost detector, and some are accepted.
// With accept_share > 0, stages 8 .. last-1 also get an acceptance threshold: the running sum at or above which
// that share of the windows alive before the stage lies (none where it would not lie above the threshold);
// accepted windows leave the sample.
#pragma once

#include <vector>

#include "common/image.hpp"
#include "common/model.hpp"

namespace cascade::test {

struct WaldboostLikeParams {
    int sample_step = 4;
    double first_keep = 0.3, early_keep = 0.8, late_keep = 0.985;
    double accept_share = 0.0;
};

struct WaldboostLike {
    LbpCascade cascade;
    std::vector<double> sample_survival;  // fraction of sampled windows alive after each stage
};

// requires: source validated, at least one frame as large as the window.
WaldboostLike make_waldboost_like(const LbpCascade& source, const std::vector<GrayView>& frames,
                                  const WaldboostLikeParams& params = {});

}  // namespace cascade::test
