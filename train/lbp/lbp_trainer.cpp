#include "train/lbp/lbp_trainer.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "common/error.hpp"
#include "data/holdout_split.hpp"
#include "train/backward_pruning.hpp"
#include "train/lbp/feature_pool.hpp"
#include "train/lbp/lbp_training_run.hpp"

namespace cascade::train::lbp {

namespace {

// Which positives calibrate the thresholds (the rest fit the weak learners): none without calibration.
std::vector<char> calibration_positives(const LbpTrainConfig& c, const LbpTrainingData& data) {
    std::vector<std::string> groups = data.positive_groups;
    if (groups.empty())
        for (std::size_t i = 0; i < data.positives.size(); ++i) groups.push_back(std::to_string(i));
    const std::vector<bool> held = data::held_out_by_group(groups, c.calibration, c.seed * 1000003 + 13);
    std::vector<char> out(held.begin(), held.end());
    int calibrating = 0;
    for (char h : out) calibrating += h;
    if (calibrating == static_cast<int>(out.size()))
        throw InputError("--calibration", "leaves no positive to fit the weak learners");
    return out;
}

MiningParams mining_params(const LbpTrainConfig& c) {
    return {c.window, c.mine_scale_factor, c.mine_per_image, c.seed, c.threads};
}

}  // namespace

LbpTrainingRun::LbpTrainingRun(const LbpTrainConfig& config, const LbpTrainingData& data, LbpTrainingObserver& observer)
    : config_(config),
      data_(data),
      observer_(observer),
      settings_(training_settings(config, data)),
      positives_(static_cast<int>(data.positives.size())),
      negatives_(config.negatives),
      calibrates_(calibration_positives(config, data)),
      pool_(sample_lbp_features(config.window, config.features, config.seed, config.min_cell)),
      table_{code_bins(config.code_bins), config.smoothing, config.shrinkage, config.bin_prior},
      codes_(static_cast<int>(pool_.size()), positives_ + negatives_),
      score_(static_cast<std::size_t>(slots()), 0.0),
      live_(static_cast<std::size_t>(slots()), 0),
      accepted_(static_cast<std::size_t>(slots()), 0),
      provenance_(static_cast<std::size_t>(negatives_)),
      miner_(data.negatives, mining_params(config)) {
    for (int f = 0; f < static_cast<int>(pool_.size()); ++f)
        pool_index_[feature_key(pool_[static_cast<std::size_t>(f)])] = f;
    cascade_.window = config.window;
    cascade_.policy = SumPolicy::running;
}

void LbpTrainingRun::start() {
    std::vector<int> positive_slots(static_cast<std::size_t>(positives_));
    for (int s = 0; s < positives_; ++s) positive_slots[static_cast<std::size_t>(s)] = s;
    codes_.fill(pool_, positive_slots, data_.positives, config_.threads);
    std::fill(live_.begin(), live_.begin() + positives_, 1);
    if (!config_.resume) return;
    if (const auto state = load_lbp_checkpoint(config_.checkpoint, settings_))
        resume(*state);
    else
        observer_.note("no checkpoint at " + config_.checkpoint + ": starting from the beginning");
}

void LbpTrainingRun::resume(const LbpTrainingState& state) {
    const auto fail = [&](const std::string& problem) { throw InputError(config_.checkpoint, problem); };
    if (!(state.cascade.window == config_.window)) fail("its cascade has another window size");
    if (static_cast<int>(state.pool.size()) != negatives_) fail("its negative pool has another size");
    cascade_ = state.cascade;
    for (const LbpWeak& weak : cascade_.weaks) {
        const auto it = pool_index_.find(feature_key(weak.feature));
        if (it == pool_index_.end()) fail("a weak learner's feature is not in the feature pool");
        weak_feature_.push_back(it->second);
    }
    // A positive is live when no stage has decided it; its sum stops where it was decided, as in training.
    for (int s = 0; s < positives_; ++s) {
        int decided = 0;
        score_[static_cast<std::size_t>(s)] = replay(s, weak_feature_.size(), decided);
        live_[static_cast<std::size_t>(s)] = decided == 0;
        accepted_[static_cast<std::size_t>(s)] = decided > 0;
    }
    miner_.set_cursor(state.cursor);
    std::vector<NegativeWindow> windows;
    for (const auto& slot : state.pool)
        if (slot) {
            if (!miner_.valid(*slot))
                fail("a pooled negative window lies outside its image (were the images changed?)");
            windows.push_back(*slot);
        }
    std::vector<int> pooled;
    for (int i = 0; i < negatives_; ++i)
        if (state.pool[static_cast<std::size_t>(i)]) pooled.push_back(positives_ + i);
    place_negatives(pooled, windows, miner_.crop(windows));
    reach_at_refill_ = state.reach_at_refill;
    pool_at_refill_ = state.pool_at_refill;
    windows_scanned_ = state.windows_scanned;
    negatives_mined_ = state.negatives_mined;
    finished_ = state.finished;
    std::ostringstream note;
    note << "resumed from " << config_.checkpoint << " at " << cascade_.weaks.size() << " weak learners";
    observer_.note(note.str());
}

// Puts negative windows into the given slots; each must pass the cascade so far. (With acceptance thresholds
// the miner's cascade passed windows that an acceptance threshold took early; once that threshold is raised, a
// later stage may reject them: their slots stay free.)

double LbpTrainingRun::finalize() {
    Stage& last = cascade_.stages.back();
    last.accept = std::numeric_limits<float>::infinity();  // the last stage decides every window it sees
    if (calibration_total() == 0) {
        RejectionInput in = rejection_input();
        in.budget = rejection_budget(config_.alpha, fitting_total(), 0, 1);
        last.threshold = final_rejection(in, last.threshold).threshold;
        reject_below(last.threshold);
        const int kept = static_cast<int>(live_fitting_positives().size()) + accepted_fitting_positives();
        return 1.0 - static_cast<double>(kept) / fitting_total();
    }
    std::vector<std::vector<double>> sums;
    for (int s = 0; s < positives_; ++s) {
        if (!calibrates_[static_cast<std::size_t>(s)]) continue;
        std::vector<double> running;
        double sum = 0.0;
        for (std::size_t i = 0; i < weak_feature_.size(); ++i)
            running.push_back(sum += cascade_.responses[i * kLbpCodes + codes_.code(weak_feature_[i], s)]);
        sums.push_back(std::move(running));
    }
    std::vector<float> accept;
    for (const Stage& stage : cascade_.stages) accept.push_back(stage.accept);
    const std::vector<float> thresholds = backward_pruning_thresholds(sums, config_.alpha, accept);
    for (std::size_t t = 0; t < thresholds.size(); ++t) cascade_.stages[t].threshold = thresholds[t];
    // The written model's miss rate on these positives, by the detectors' own stage rule.
    int missed = 0;
    for (const auto& running : sums) {
        for (std::size_t t = 0; t < running.size(); ++t) {
            if (running[t] < static_cast<double>(thresholds[t])) {
                ++missed;
                break;
            }
            if (running[t] >= static_cast<double>(cascade_.stages[t].accept)) break;
        }
    }
    return static_cast<double>(missed) / static_cast<double>(sums.size());
}

void LbpTrainingRun::checkpoint(const std::string& finished) {
    if (config_.checkpoint.empty() || cascade_.weaks.empty()) return;
    LbpTrainingState state;
    state.cascade = cascade_;
    for (int i = 0; i < negatives_; ++i) {
        const bool live = live_[static_cast<std::size_t>(positives_ + i)] != 0;
        state.pool.push_back(live ? std::optional<NegativeWindow>(provenance_[static_cast<std::size_t>(i)])
                                  : std::nullopt);
    }
    state.cursor = miner_.cursor();
    state.reach_at_refill = reach_at_refill_;
    state.pool_at_refill = pool_at_refill_;
    state.windows_scanned = windows_scanned_;
    state.negatives_mined = negatives_mined_;
    state.finished = finished;
    save_lbp_checkpoint(config_.checkpoint, state, settings_);
    observer_.checkpointed(static_cast<int>(cascade_.weaks.size()), config_.checkpoint);
}

std::string LbpTrainingRun::train_on() {
    std::ostringstream why;
    while (true) {
        const int t = static_cast<int>(cascade_.weaks.size());
        if (t >= config_.weak_learners) {
            why << "reached " << config_.weak_learners << " weak learners";
            break;
        }
        if (t > 0 && config_.target_fpr > 0.0 && negative_reach() <= config_.target_fpr) {
            why << "the training cascade's estimated false-positive rate per window " << negative_reach()
                << " reached --target-fpr "
                << config_.target_fpr;
            break;
        }
        if (live_negatives() < config_.refill_below * negatives_) {
            const bool complete = refill();
            checkpoint();
            if (!complete && t == 0)
                throw InputError("--neg", "the negative images hold only " + std::to_string(live_negatives()) +
                                              " windows at every scale and position, fewer than the pool of " +
                                              std::to_string(negatives_) + " (--negatives)");
            if (!complete) {
                why << "no more hard negatives: the miner has scanned every window of the " << data_.negatives.size()
                    << " negative images at every scale and position (" << windows_scanned_
                    << " windows in all) and the cascade rejects all but " << live_negatives() << " of the "
                    << negatives_ << " the pool needs; add negative images or lower --negatives";
                break;
            }
        }
        add_weak();
        if (config_.checkpoint_every > 0 && (t + 1) % config_.checkpoint_every == 0) checkpoint();
    }
    return why.str();
}

LbpTrainingResult LbpTrainingRun::run() {
    start();
    LbpTrainingResult result;
    // A finished run's checkpoint resumes to the same model: its state goes through finalize as it did then.
    result.stopped_because = finished_;
    if (finished_.empty()) {
        result.stopped_because = train_on();
        checkpoint(result.stopped_because);  // the state before finalize, which only the written model gets
    } else {
        observer_.note("the checkpoint's run had finished (" + finished_ + "): no further training");
    }
    result.fpr_estimate = negative_reach();
    result.calibration_miss_rate = finalize();
    result.cascade = cascade_;
    result.windows_scanned = windows_scanned_;
    result.negatives_mined = negatives_mined_;
    return result;
}

LbpTrainingResult train_lbp(const LbpTrainConfig& config, const LbpTrainingData& data, LbpTrainingObserver& observer) {
    validate(config);
    if (data.positives.empty()) throw InputError("--pos", "no positive samples");
    if (!data.positive_groups.empty() && data.positive_groups.size() != data.positives.size())
        throw std::invalid_argument("train_lbp: one group per positive expected");
    for (const GrayImage& p : data.positives)
        if (!(p.size() == config.window)) throw std::invalid_argument("train_lbp: a positive is not window-sized");
    if (data.negatives.empty()) throw InputError("--neg", "no negative images");
    return LbpTrainingRun(config, data, observer).run();
}

}  // namespace cascade::train::lbp
