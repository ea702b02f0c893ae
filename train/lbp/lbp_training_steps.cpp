// The steps of an LbpTrainingRun on its sample pool: which slots are live, negatives placed from the miner,
// rejection and acceptance thresholds, one weak learner fitted and added.
#include <algorithm>
#include <cmath>
#include <limits>

#include "common/error.hpp"
#include "train/boost_weights.hpp"
#include "train/lbp/lbp_training_run.hpp"
#include "train/lbp/lbp_window_classifier.hpp"
#include "train/lbp/weak_fit.hpp"

namespace cascade::train::lbp {

int LbpTrainingRun::accepted_fitting_positives() const {
    int n = 0;
    for (int s = 0; s < positives_; ++s)
        n += accepted_[static_cast<std::size_t>(s)] && !calibrates_[static_cast<std::size_t>(s)] ? 1 : 0;
    return n;
}

double LbpTrainingRun::replay(int s, std::size_t count, int& decided) const {
    double sum = 0.0;
    decided = 0;
    for (std::size_t i = 0; i < count; ++i) {
        sum += cascade_.responses[i * kLbpCodes + codes_.code(weak_feature_[i], s)];
        if (sum < cascade_.stages[i].threshold) {
            decided = -1;
            break;
        }
        if (sum >= cascade_.stages[i].accept) {
            decided = +1;
            break;
        }
    }
    return sum;
}

std::vector<int> LbpTrainingRun::live_fitting_positives() const {
    std::vector<int> out;
    for (int s : live_slots(0, positives_))
        if (!calibrates_[static_cast<std::size_t>(s)]) out.push_back(s);
    return out;
}

int LbpTrainingRun::calibration_total() const {
    int n = 0;
    for (char c : calibrates_) n += c;
    return n;
}

std::vector<int> LbpTrainingRun::live_slots(int first, int end) const {
    std::vector<int> out;
    for (int s = first; s < end; ++s)
        if (live_[static_cast<std::size_t>(s)]) out.push_back(s);
    return out;
}

void LbpTrainingRun::place_negatives(const std::vector<int>& targets, const std::vector<NegativeWindow>& windows,
                              const std::vector<GrayImage>& crops) {
    codes_.fill(pool_, targets, crops, config_.threads);
    if (config_.accept) raise_acceptance(targets);
    for (std::size_t i = 0; i < targets.size(); ++i) {
        const int s = targets[i];
        int decided = 0;
        score_[static_cast<std::size_t>(s)] = replay(s, weak_feature_.size(), decided);
        if (decided > 0 || (decided < 0 && !config_.accept))
            throw std::logic_error("a mined negative is not undecided by the cascade it was mined with");
        live_[static_cast<std::size_t>(s)] = decided == 0;
        provenance_[static_cast<std::size_t>(s - positives_)] = windows[i];
    }
}

// Acceptance thresholds stay above every negative seen at their stage: a newly mined window that one of them
// would accept raises it to just above the window's sum there. (Set on the pool alone, they accept far too
// many new windows: the weak learners were fitted to push the pool's sums down.) Positives accepted below a
// raised threshold are replayed through the cascade.

void LbpTrainingRun::raise_acceptance(const std::vector<int>& negatives) {
    bool raised = false;
    for (int s : negatives) {
        double sum = 0.0;
        for (std::size_t i = 0; i < weak_feature_.size(); ++i) {
            sum += cascade_.responses[i * kLbpCodes + codes_.code(weak_feature_[i], s)];
            Stage& stage = cascade_.stages[i];
            if (sum < stage.threshold) break;
            if (sum >= stage.accept) {
                stage.accept = float_above(sum);
                raised = true;
            }
        }
    }
    if (!raised) return;
    for (int s = 0; s < positives_; ++s) {
        if (!accepted_[static_cast<std::size_t>(s)]) continue;
        int decided = 0;
        score_[static_cast<std::size_t>(s)] = replay(s, weak_feature_.size(), decided);
        live_[static_cast<std::size_t>(s)] = decided == 0;
        accepted_[static_cast<std::size_t>(s)] = decided > 0;
    }
}

bool LbpTrainingRun::refill() {
    const int needed = negatives_ - live_negatives();
    const MiningBatch batch = miner_.mine(needed, LbpWindowClassifier(cascade_));
    std::vector<int> free_slots;
    for (int s = positives_; s < slots() && free_slots.size() < batch.windows.size(); ++s)
        if (!live_[static_cast<std::size_t>(s)]) free_slots.push_back(s);
    place_negatives(free_slots, batch.windows, batch.crops);
    if (batch.scanned > 0)
        reach_at_refill_ = static_cast<double>(batch.windows.size()) / static_cast<double>(batch.scanned);
    pool_at_refill_ = live_negatives();
    windows_scanned_ += batch.scanned;
    negatives_mined_ += static_cast<long long>(batch.windows.size());
    scanned_since_weak_ += batch.scanned;
    mined_since_weak_ += static_cast<int>(batch.windows.size());
    observer_.mined({static_cast<int>(cascade_.weaks.size()), needed, static_cast<int>(batch.windows.size()),
                     batch.scanned, batch.visits, windows_scanned_, miner_.universe(), reach_at_refill_,
                     batch.exhausted});
    return static_cast<int>(batch.windows.size()) == needed;
}

RejectionInput LbpTrainingRun::rejection_input() const {
    RejectionInput in;
    for (int s : live_fitting_positives()) in.positives.push_back(score_[static_cast<std::size_t>(s)]);
    for (int s : live_slots(positives_, slots())) in.negatives.push_back(score_[static_cast<std::size_t>(s)]);
    in.positives_rejected = fitting_total() - static_cast<int>(in.positives.size()) - accepted_fitting_positives();
    in.budget = rejection_budget(config_.alpha, fitting_total(), static_cast<int>(cascade_.weaks.size()) - 1,
                                 config_.weak_learners);
    in.alpha = config_.alpha;
    return in;
}

void LbpTrainingRun::reject_below(float threshold) {
    for (int s = 0; s < slots(); ++s) {
        auto& live = live_[static_cast<std::size_t>(s)];
        if (live && score_[static_cast<std::size_t>(s)] < threshold) live = 0;
    }
}

// WaldBoost's acceptance threshold with beta = 0: the smallest float above every live negative's sum (+inf
// when no negative is live); the live samples at or above it are decided.

float LbpTrainingRun::accept_above_negatives() {
    const std::vector<int> negatives = live_slots(positives_, slots());
    if (negatives.empty()) return std::numeric_limits<float>::infinity();
    double highest = score_[static_cast<std::size_t>(negatives.front())];
    for (int s : negatives) highest = std::max(highest, score_[static_cast<std::size_t>(s)]);
    const float accept = float_above(highest);
    for (int s = 0; s < positives_; ++s)
        if (live_[static_cast<std::size_t>(s)] && score_[static_cast<std::size_t>(s)] >= accept) {
            live_[static_cast<std::size_t>(s)] = 0;
            accepted_[static_cast<std::size_t>(s)] = 1;
        }
    return accept;
}

void LbpTrainingRun::add_weak() {
    WeightedSlots all, selection;
    all.positives = live_fitting_positives();
    all.negatives = live_slots(positives_, slots());
    std::vector<double> pos_scores, neg_scores;
    for (int s : all.positives) pos_scores.push_back(score_[static_cast<std::size_t>(s)]);
    for (int s : all.negatives) neg_scores.push_back(score_[static_cast<std::size_t>(s)]);
    all.positive_weights = class_weights(pos_scores, +1);
    all.negative_weights = class_weights(neg_scores, -1);
    for (int i : trim_weights(all.positive_weights, config_.trim)) {
        selection.positives.push_back(all.positives[static_cast<std::size_t>(i)]);
        selection.positive_weights.push_back(all.positive_weights[static_cast<std::size_t>(i)]);
    }
    for (int i : trim_weights(all.negative_weights, config_.trim)) {
        selection.negatives.push_back(all.negatives[static_cast<std::size_t>(i)]);
        selection.negative_weights.push_back(all.negative_weights[static_cast<std::size_t>(i)]);
    }
    const LbpWeakFit fit = fit_lbp_weak(codes_, selection, all, table_, config_.threads);

    const int index = static_cast<int>(cascade_.weaks.size());
    cascade_.weaks.push_back({pool_[static_cast<std::size_t>(fit.feature)], index});
    cascade_.responses.insert(cascade_.responses.end(), fit.responses.begin(), fit.responses.end());
    weak_feature_.push_back(fit.feature);
    for (int s = 0; s < slots(); ++s)
        if (live_[static_cast<std::size_t>(s)])
            score_[static_cast<std::size_t>(s)] += fit.responses[codes_.code(fit.feature, s)];

    const int negatives_before = static_cast<int>(all.negatives.size());
    const Rejection rejection = sprt_rejection(rejection_input());
    cascade_.stages.push_back({index, 1, rejection.threshold});
    reject_below(rejection.threshold);
    const int accepted_before = accepted_fitting_positives();
    if (config_.accept) cascade_.stages.back().accept = accept_above_negatives();

    WeakEvent event;
    event.index = index;
    event.limit = config_.weak_learners;
    event.feature = pool_[static_cast<std::size_t>(fit.feature)];
    event.error = fit.error;
    event.z = fit.z;
    event.threshold = rejection.threshold;
    event.accept = cascade_.stages.back().accept;
    event.positives_accepted = accepted_fitting_positives() - accepted_before;
    event.positives_live = static_cast<int>(live_fitting_positives().size());
    event.positives_total = fitting_total();
    event.negatives_before = negatives_before;
    event.negatives_rejected = rejection.negatives;
    event.negatives_mined = mined_since_weak_;
    event.windows_scanned = scanned_since_weak_;
    event.fpr_estimate = negative_reach();
    observer_.weak_added(event);
    mined_since_weak_ = 0;
    scanned_since_weak_ = 0;
}

// The thresholds of the written model. With calibration positives: direct backward pruning on them (the
// training thresholds, set on the positives the weak learners were fitted to, are optimistic and only steer
// the mining). Without: the training thresholds, the last raised to spend what is left of the miss budget.

}  // namespace cascade::train::lbp
