// One stage of an opencv_traincascade-style LBP cascade: boosting of subset stumps (train/lbp/subset_stump.hpp)
// on the positives and negatives that reach the stage, as CvCascadeBoost does. Weak learners are added until
// the stage, with its threshold set for `min_hit_rate` on the positives, passes at most `max_false_alarm` of
// the negatives, or until `max_weak_count`.
//
// The stage sum of a sample is the sum, in double, of its weak learners' float responses in order: what the
// detectors (and OpenCV) compute. The threshold is the float T of the sum of the positive at the hit-rate
// quantile (OpenCV's eval[numPos - round(minHitRate * numPos)]), less OpenCV's THRESHOLD_EPS (1e-5f) as OpenCV
// takes it off when it loads T: the stage carries exactly the float the detectors compare against, and
// hit and false-alarm rates are counted by their rule (sum >= threshold passes).
#pragma once

#include <functional>
#include <vector>

#include "common/model.hpp"
#include "train/lbp/code_table.hpp"
#include "train/lbp/ordered_tree.hpp"
#include "train/lbp/subset_stump.hpp"

namespace cascade::train::lbp {

struct StageBoostParams {
    BoostType type = BoostType::gentle;
    double min_hit_rate = 0.995;
    double max_false_alarm = 0.5;
    double weight_trim_rate = 0.95;
    int max_weak_count = 100;
    int threads = 0;
    bool ordered_codes = false;  // codes are bins of a scalar feature: threshold stumps (fit_subset_stump)
    int max_depth = 1;           // > 1 (ordered codes only): trees of this depth (train/lbp/ordered_tree.hpp)
};

// A stump (feature, responses, cut), or, when `tree` has nodes, that tree.
struct StageWeak {
    int feature = 0;  // in the code table
    std::array<float, kLbpCodes> responses{};
    int cut = kLbpCodes;  // ordered codes: the codes >= cut take the second leaf
    OrderedTree tree;

    float response(const CodeTable& codes, int slot) const {
        return tree.nodes.empty() ? responses[codes.code(feature, slot)] : tree.response(codes, slot);
    }
};

// After each weak learner: how many there are, the stage's hit rate and false alarm rate with its threshold.
struct StageProgress {
    int weak_count = 0;
    double hit_rate = 0.0;
    double false_alarm = 0.0;
};

struct BoostedStage {
    std::vector<StageWeak> weaks;
    float threshold = 0.f;  // as the detectors compare (written threshold less 1e-5f)
    StageProgress last;
};

BoostedStage boost_stage(const CodeTable& codes, const std::vector<int>& positives, const std::vector<int>& negatives,
                         const StageBoostParams& params, const std::function<void(const StageProgress&)>& progress);

}  // namespace cascade::train::lbp
