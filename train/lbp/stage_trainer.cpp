#include "train/lbp/stage_trainer.hpp"

#include <chrono>
#include <climits>
#include <cmath>
#include <sstream>
#include <unordered_map>

#include "cli/usage_error.hpp"
#include "cli/values.hpp"
#include "common/cascade_eval.hpp"
#include "common/error.hpp"
#include "train/lbp/feature_pool.hpp"
#include "train/lbp/lbp_window_classifier.hpp"

namespace cascade::train::lbp {

namespace {

void require(bool ok, const std::string& option, const std::string& problem) {
    if (!ok) throw cli::UsageError(option, problem);
}

std::string number(double v) {
    std::ostringstream s;
    s.precision(17);
    s << v;
    return s.str();
}

int pool_size(const StageTrainConfig& c) {
    const long long all = count_lbp_features(c.window);
    return static_cast<int>(std::min<long long>(c.features > 0 ? c.features : all, INT_MAX));
}

class StageTrainingRun {
public:
    StageTrainingRun(const StageTrainConfig& config, const LbpTrainingData& data, StageTrainingObserver& observer)
        : config_(config),
          data_(data),
          observer_(observer),
          positives_(static_cast<int>(data.positives.size())),
          pool_(sample_lbp_features(config.window, pool_size(config), config.seed)),
          codes_(static_cast<int>(pool_.size()), positives_ + config.negatives),
          miner_(data.negatives, {config.window, config.mine_scale_factor, config.mine_per_image, config.seed,
                                  config.boost.threads}) {
        for (int f = 0; f < static_cast<int>(pool_.size()); ++f) index_[feature_key(pool_[static_cast<std::size_t>(f)])] = f;
        cascade_.window = config.window;
        cascade_.policy = SumPolicy::per_stage;
    }

    StageTrainingResult run() {
        std::vector<int> slots(static_cast<std::size_t>(positives_));
        for (int s = 0; s < positives_; ++s) slots[static_cast<std::size_t>(s)] = s;
        codes_.fill(pool_, slots, data_.positives, config_.boost.threads);
        if (config_.resume) resume();
        StageTrainingResult result;
        result.stopped_because = finished_.empty() ? train_on() : finished_;
        if (finished_.empty()) checkpoint(result.stopped_because);
        result.cascade = cascade_;
        result.false_alarm = acceptance_;
        result.windows_scanned = scanned_;
        result.negatives_mined = mined_;
        return result;
    }

private:
    void resume() {
        const auto state = load_lbp_checkpoint(config_.checkpoint, stage_training_settings(config_, data_));
        if (!state) {
            observer_.note("no checkpoint at " + config_.checkpoint + ": starting from the beginning");
            return;
        }
        if (state->cascade.policy != SumPolicy::per_stage || !(state->cascade.window == config_.window))
            throw InputError(config_.checkpoint, "its cascade is not a per-stage cascade of this window");
        cascade_ = state->cascade;
        for (const LbpWeak& weak : cascade_.weaks) {
            const auto it = index_.find(feature_key(weak.feature));
            if (it == index_.end()) throw InputError(config_.checkpoint, "a weak learner's feature is not in the pool");
            weak_feature_.push_back(it->second);
        }
        miner_.set_cursor(state->cursor);
        acceptance_ = state->reach_at_refill;
        scanned_ = state->windows_scanned;
        mined_ = state->negatives_mined;
        finished_ = state->finished;
        observer_.note("resumed from " + config_.checkpoint + " at " + std::to_string(cascade_.stages.size()) +
                       " stages" + (finished_.empty() ? "" : " (its run had finished: " + finished_ + ")"));
    }

    // Whether the cascade so far accepts the sample in `slot` (the detectors' rule on its codes).
    bool accepted(int slot) const {
        for (const Stage& stage : cascade_.stages) {
            double sum = 0.0;
            for (int i = stage.first; i < stage.first + stage.count; ++i)
                sum += cascade_.responses[static_cast<std::size_t>(i) * kLbpCodes +
                                          codes_.code(weak_feature_[static_cast<std::size_t>(i)], slot)];
            if (sum < static_cast<double>(stage.threshold)) return false;
        }
        return true;
    }

    std::string train_on() {
        const double required = std::pow(config_.boost.max_false_alarm, config_.stages);
        while (static_cast<int>(cascade_.stages.size()) < config_.stages) {
            const auto start = std::chrono::steady_clock::now();
            const int stage = static_cast<int>(cascade_.stages.size());
            std::vector<int> positives;
            for (int s = 0; s < positives_; ++s)
                if (accepted(s)) positives.push_back(s);
            if (positives.empty()) return "the cascade rejects every positive";
            const MiningBatch batch = miner_.mine(config_.negatives, LbpWindowClassifier(cascade_));
            scanned_ += batch.scanned;
            mined_ += static_cast<long long>(batch.windows.size());
            if (batch.scanned > 0) acceptance_ = static_cast<double>(batch.windows.size()) / static_cast<double>(batch.scanned);
            const int found = static_cast<int>(batch.windows.size());
            if (found < config_.negatives)
                return "the miner scanned every window of the " + std::to_string(data_.negatives.size()) +
                       " negative images and found " + std::to_string(found) + " of the " +
                       std::to_string(config_.negatives) + " negatives stage " + std::to_string(stage + 1) +
                       " needs (the cascade so far accepts no more); add negative images or lower --negatives";
            if (stage > 0 && acceptance_ <= required)
                return "the false alarm rate " + number(acceptance_) + " reached max-false-alarm^stages " +
                       number(required);
            observer_.stage_started(stage, static_cast<int>(positives.size()), found, acceptance_);
            std::vector<int> negatives;
            for (int i = 0; i < found; ++i) negatives.push_back(positives_ + i);
            codes_.fill(pool_, negatives, batch.crops, config_.boost.threads);
            StageEvent event{stage, config_.stages, static_cast<int>(positives.size()), positives_, found,
                             batch.scanned, acceptance_, {}, 0.0};
            event.boosted = boost_stage(codes_, positives, negatives, config_.boost,
                                        [&](const StageProgress& p) { observer_.weak_added(p); });
            append(event.boosted);
            event.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            observer_.stage_added(event);
            checkpoint("");
        }
        return "reached " + std::to_string(config_.stages) + " stages";
    }

    void append(const BoostedStage& boosted) {
        const int first = static_cast<int>(cascade_.weaks.size());
        for (const StageWeak& w : boosted.weaks) {
            cascade_.weaks.push_back({pool_[static_cast<std::size_t>(w.feature)], static_cast<int>(cascade_.weaks.size())});
            cascade_.responses.insert(cascade_.responses.end(), w.responses.begin(), w.responses.end());
            weak_feature_.push_back(w.feature);
        }
        cascade_.stages.push_back({first, static_cast<int>(boosted.weaks.size()), boosted.threshold});
    }

    void checkpoint(const std::string& finished) {
        if (config_.checkpoint.empty() || cascade_.stages.empty()) return;
        LbpTrainingState state;
        state.cascade = cascade_;
        state.cursor = miner_.cursor();
        state.reach_at_refill = acceptance_;
        state.windows_scanned = scanned_;
        state.negatives_mined = mined_;
        state.finished = finished;
        save_lbp_checkpoint(config_.checkpoint, state, stage_training_settings(config_, data_));
        observer_.checkpointed(static_cast<int>(cascade_.stages.size()), config_.checkpoint);
    }

    const StageTrainConfig& config_;
    const LbpTrainingData& data_;
    StageTrainingObserver& observer_;
    const int positives_;
    const std::vector<LbpFeature> pool_;
    std::unordered_map<std::uint64_t, int> index_;
    CodeTable codes_;
    NegativeMiner miner_;
    LbpCascade cascade_;
    std::vector<int> weak_feature_;
    double acceptance_ = 1.0;
    long long scanned_ = 0, mined_ = 0;
    std::string finished_;
};

}  // namespace

void validate(const StageTrainConfig& c) {
    require(c.window.width >= 3 && c.window.height >= 3, "--window", "must be at least 3x3 (one 1x1-cell LBP feature)");
    require(c.stages >= 1, "--stages", "must be at least 1");
    require(c.boost.min_hit_rate > 0.0 && c.boost.min_hit_rate <= 1.0, "--min-hit-rate", "must lie in (0, 1]");
    require(c.boost.max_false_alarm > 0.0 && c.boost.max_false_alarm < 1.0, "--max-false-alarm",
            "must lie in (0, 1): 0 asks a stage to reject every negative, which boosting cannot promise");
    require(c.boost.weight_trim_rate > 0.0 && c.boost.weight_trim_rate <= 1.0, "--weight-trim-rate",
            "must lie in (0, 1]");
    require(c.boost.max_weak_count >= 1, "--max-weak-count", "must be at least 1");
    require(c.negatives >= 1, "--negatives", "must be at least 1");
    require(c.features >= 0, "--features", "must be 0 (every feature) or more");
    cli::check_scale_factor("--mine-scale-factor", c.mine_scale_factor);
    require(c.mine_per_image >= 1, "--mine-per-image", "must be at least 1");
    require(!c.resume || !c.checkpoint.empty(), "--resume", "needs a checkpoint path");
}

TrainingSettings stage_training_settings(const StageTrainConfig& c, const LbpTrainingData& data) {
    TrainingSettings out{{"trainer", "lbp-opencv"},
                         {"window", std::to_string(c.window.width) + "x" + std::to_string(c.window.height)},
                         {"stages", std::to_string(c.stages)},
                         {"boost", opencv_boost_name(c.boost.type)},
                         {"min-hit-rate", number(c.boost.min_hit_rate)},
                         {"max-false-alarm", number(c.boost.max_false_alarm)},
                         {"weight-trim-rate", number(c.boost.weight_trim_rate)},
                         {"max-weak-count", std::to_string(c.boost.max_weak_count)},
                         {"negatives", std::to_string(c.negatives)},
                         {"features", std::to_string(c.features)},
                         {"mine-scale-factor", number(c.mine_scale_factor)},
                         {"mine-per-image", std::to_string(c.mine_per_image)},
                         {"seed", std::to_string(c.seed)}};
    for (auto& entry : data_settings(data)) out.push_back(std::move(entry));
    return out;
}

StageTrainingResult train_lbp_stages(const StageTrainConfig& config, const LbpTrainingData& data,
                                     StageTrainingObserver& observer) {
    validate(config);
    if (data.positives.empty()) throw InputError("--pos", "no positive samples");
    for (const GrayImage& p : data.positives)
        if (!(p.size() == config.window)) throw std::invalid_argument("train_lbp_stages: a positive is not window-sized");
    if (data.negatives.empty()) throw InputError("--neg", "no negative images");
    return StageTrainingRun(config, data, observer).run();
}

}  // namespace cascade::train::lbp
