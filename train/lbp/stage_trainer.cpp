#include "train/lbp/stage_trainer.hpp"

#include <chrono>
#include <algorithm>
#include <climits>
#include <cmath>
#include <sstream>
#include <stdexcept>
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

// LBP's family: MB-LBP features, subset stumps, an LbpCascade, checkpoints.
class LbpStageFeatures : public StageFeatures {
public:
    LbpStageFeatures(const StageTrainConfig& config, const LbpTrainingData& data)
        : settings_(stage_training_settings(config, data)),
          pool_(sample_lbp_features(config.window, pool_size(config), config.seed)) {
        for (int f = 0; f < size(); ++f) index_[feature_key(pool_[static_cast<std::size_t>(f)])] = f;
        cascade.window = config.window;
        cascade.policy = SumPolicy::per_stage;
    }
    int size() const override { return static_cast<int>(pool_.size()); }
    bool ordered_codes() const override { return false; }
    void fill(CodeTable& codes, const std::vector<int>& slots, const std::vector<GrayImage>& windows,
              int threads) override {
        codes.fill(pool_, slots, windows, threads);
    }
    void append(const BoostedStage& boosted) override {
        const int first = static_cast<int>(cascade.weaks.size());
        for (const StageWeak& w : boosted.weaks) {
            cascade.weaks.push_back({pool_[static_cast<std::size_t>(w.feature)], static_cast<int>(cascade.weaks.size())});
            cascade.responses.insert(cascade.responses.end(), w.responses.begin(), w.responses.end());
        }
        cascade.stages.push_back({first, static_cast<int>(boosted.weaks.size()), boosted.threshold});
    }
    std::unique_ptr<WindowClassifier> classifier() const override {
        return std::make_unique<LbpWindowClassifier>(cascade);
    }
    bool checkpoints() const override { return true; }
    void save_checkpoint(const std::string& path, const StageRunState& run) const override {
        LbpTrainingState state;
        state.cascade = cascade;
        state.cursor = run.cursor;
        state.reach_at_refill = run.acceptance;
        state.windows_scanned = run.scanned;
        state.negatives_mined = run.mined;
        state.finished = run.finished;
        save_lbp_checkpoint(path, state, settings_);
    }
    std::optional<StageRunState> resume(const std::string& path, std::vector<BoostedStage>& stages) override {
        const auto state = load_lbp_checkpoint(path, settings_);
        if (!state) return std::nullopt;
        if (state->cascade.policy != SumPolicy::per_stage || !(state->cascade.window == cascade.window))
            throw InputError(path, "its cascade is not a per-stage cascade of this window");
        cascade = state->cascade;
        for (const Stage& stage : cascade.stages) {
            BoostedStage boosted;
            boosted.threshold = stage.threshold;
            for (int i = stage.first; i < stage.first + stage.count; ++i) {
                const auto it = index_.find(feature_key(cascade.weaks[static_cast<std::size_t>(i)].feature));
                if (it == index_.end()) throw InputError(path, "a weak learner's feature is not in the pool");
                StageWeak weak;
                weak.feature = it->second;
                std::copy_n(cascade.responses.begin() + static_cast<std::ptrdiff_t>(i) * kLbpCodes, kLbpCodes,
                            weak.responses.begin());
                boosted.weaks.push_back(weak);
            }
            stages.push_back(std::move(boosted));
        }
        return StageRunState{state->cursor, state->reach_at_refill, state->windows_scanned, state->negatives_mined,
                             state->finished};
    }

    LbpCascade cascade;

private:
    const TrainingSettings settings_;
    const std::vector<LbpFeature> pool_;
    std::unordered_map<std::uint64_t, int> index_;
};

class StageTrainingRun {
public:
    StageTrainingRun(const StageTrainConfig& config, const LbpTrainingData& data, StageFeatures& features,
                     StageTrainingObserver& observer)
        : config_(config),
          data_(data),
          features_(features),
          observer_(observer),
          positives_(static_cast<int>(data.positives.size())),
          codes_(features.size(), positives_ + config.negatives),
          miner_(data.negatives, {config.window, config.mine_scale_factor, config.mine_per_image, config.seed,
                                  config.boost.threads}) {}

    StageRunOutcome run() {
        std::vector<int> slots(static_cast<std::size_t>(positives_));
        for (int s = 0; s < positives_; ++s) slots[static_cast<std::size_t>(s)] = s;
        features_.fill(codes_, slots, data_.positives, config_.boost.threads);
        if (config_.resume) resume();
        StageRunOutcome result;
        result.stopped_because = state_.finished.empty() ? train_on() : state_.finished;
        if (state_.finished.empty()) checkpoint(result.stopped_because);
        result.false_alarm = state_.acceptance;
        result.windows_scanned = state_.scanned;
        result.negatives_mined = state_.mined;
        return result;
    }

private:
    void resume() {
        const auto state = features_.resume(config_.checkpoint, stages_);
        if (!state) {
            observer_.note("no checkpoint at " + config_.checkpoint + ": starting from the beginning");
            return;
        }
        state_ = *state;
        miner_.set_cursor(state_.cursor);
        observer_.note("resumed from " + config_.checkpoint + " at " + std::to_string(stages_.size()) + " stages" +
                       (state_.finished.empty() ? "" : " (its run had finished: " + state_.finished + ")"));
    }

    // Whether the cascade so far accepts the sample in `slot` (the detectors' rule on its codes).
    bool accepted(int slot) const {
        for (const BoostedStage& stage : stages_) {
            double sum = 0.0;
            for (const StageWeak& w : stage.weaks) sum += w.response(codes_, slot);
            if (sum < static_cast<double>(stage.threshold)) return false;
        }
        return true;
    }

    std::string train_on() {
        const double required = std::pow(config_.boost.max_false_alarm, config_.stages);
        std::vector<bool> usable(static_cast<std::size_t>(positives_));
        for (int s = 0; s < positives_; ++s)
            usable[static_cast<std::size_t>(s)] = !features_.refused(data_.positives[static_cast<std::size_t>(s)]);
        while (static_cast<int>(stages_.size()) < config_.stages) {
            const auto start = std::chrono::steady_clock::now();
            const int stage = static_cast<int>(stages_.size());
            std::vector<int> positives;
            for (int s = 0; s < positives_; ++s)
                if (usable[static_cast<std::size_t>(s)] && accepted(s)) positives.push_back(s);
            if (positives.empty()) return "the cascade rejects every positive";
            const MiningBatch batch = miner_.mine(config_.negatives, *features_.classifier());
            state_.scanned += batch.scanned;
            state_.mined += static_cast<long long>(batch.windows.size());
            if (batch.scanned > 0)
                state_.acceptance = static_cast<double>(batch.windows.size()) / static_cast<double>(batch.scanned);
            const int found = static_cast<int>(batch.windows.size());
            if (found < config_.negatives)
                return "the miner scanned every window of the " + std::to_string(data_.negatives.size()) +
                       " negative images and found " + std::to_string(found) + " of the " +
                       std::to_string(config_.negatives) + " negatives stage " + std::to_string(stage + 1) +
                       " needs (the cascade so far accepts no more); add negative images or lower --negatives";
            if (stage > 0 && state_.acceptance <= required)
                return "the false alarm rate " + number(state_.acceptance) + " reached max-false-alarm^stages " +
                       number(required);
            observer_.stage_started(stage, static_cast<int>(positives.size()), found, state_.acceptance);
            std::vector<int> negatives;
            for (int i = 0; i < found; ++i) negatives.push_back(positives_ + i);
            features_.fill(codes_, negatives, batch.crops, config_.boost.threads);
            StageEvent event{stage, config_.stages, static_cast<int>(positives.size()), positives_, found,
                             batch.scanned, state_.acceptance, {}, 0.0};
            StageBoostParams params = config_.boost;
            params.ordered_codes = features_.ordered_codes();
            if (!params.ordered_codes && params.max_depth > 1)
                throw std::invalid_argument("train_stages: trees need ordered codes (a scalar feature)");
            event.boosted = boost_stage(codes_, positives, negatives, params,
                                        [&](const StageProgress& p) { observer_.weak_added(p); });
            features_.append(event.boosted);
            stages_.push_back(event.boosted);
            event.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            observer_.stage_added(event);
            checkpoint("");
        }
        return "reached " + std::to_string(config_.stages) + " stages";
    }

    void checkpoint(const std::string& finished) {
        if (config_.checkpoint.empty() || stages_.empty() || !features_.checkpoints()) return;
        state_.cursor = miner_.cursor();
        state_.finished = finished;
        features_.save_checkpoint(config_.checkpoint, state_);
        state_.finished.clear();
        observer_.checkpointed(static_cast<int>(stages_.size()), config_.checkpoint);
    }

    const StageTrainConfig& config_;
    const LbpTrainingData& data_;
    StageFeatures& features_;
    StageTrainingObserver& observer_;
    const int positives_;
    CodeTable codes_;
    NegativeMiner miner_;
    std::vector<BoostedStage> stages_;
    StageRunState state_;
};

}  // namespace

void validate(const StageTrainConfig& c) {
    require(c.window.width >= 3 && c.window.height >= 3, "--window", "must be at least 3x3 (one 1x1-cell LBP feature; Haar: OpenCV's window normalisation)");
    require(c.stages >= 1, "--stages", "must be at least 1");
    require(c.boost.min_hit_rate > 0.0 && c.boost.min_hit_rate <= 1.0, "--min-hit-rate", "must lie in (0, 1]");
    require(c.boost.max_false_alarm > 0.0 && c.boost.max_false_alarm < 1.0, "--max-false-alarm",
            "must lie in (0, 1): 0 asks a stage to reject every negative, which boosting cannot promise");
    require(c.boost.weight_trim_rate > 0.0 && c.boost.weight_trim_rate <= 1.0, "--weight-trim-rate",
            "must lie in (0, 1]");
    require(c.boost.max_weak_count >= 1, "--max-weak-count", "must be at least 1");
    require(c.boost.max_depth >= 1 && c.boost.max_depth <= kMaxTreeDepth, "--max-depth",
            "must lie in [1, " + std::to_string(kMaxTreeDepth) + "] (1: stumps; OpenCV's trees stop at 25 levels)");
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
    if (c.boost.max_depth > 1) out.push_back({"max-depth", std::to_string(c.boost.max_depth)});  // stumps' as before
    for (auto& entry : data_settings(data)) out.push_back(std::move(entry));
    return out;
}

StageRunOutcome train_stages(const StageTrainConfig& config, const LbpTrainingData& data, StageFeatures& features,
                             StageTrainingObserver& observer) {
    validate(config);
    if (data.positives.empty()) throw InputError("--pos", "no positive samples");
    for (const GrayImage& p : data.positives)
        if (!(p.size() == config.window)) throw std::invalid_argument("train_stages: a positive is not window-sized");
    if (data.negatives.empty()) throw InputError("--neg", "no negative images");
    return StageTrainingRun(config, data, features, observer).run();
}

StageTrainingResult train_lbp_stages(const StageTrainConfig& config, const LbpTrainingData& data,
                                     StageTrainingObserver& observer) {
    validate(config);
    LbpStageFeatures features(config, data);
    StageTrainingResult result{train_stages(config, data, features, observer), {}};
    result.cascade = std::move(features.cascade);
    return result;
}

}  // namespace cascade::train::lbp
