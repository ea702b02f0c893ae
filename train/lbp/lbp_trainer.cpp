#include "train/lbp/lbp_trainer.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <unordered_map>

#include "common/cascade_eval.hpp"
#include "common/error.hpp"
#include "common/integral.hpp"
#include "data/holdout_split.hpp"
#include "train/backward_pruning.hpp"
#include "train/boost_weights.hpp"
#include "train/lbp/code_table.hpp"
#include "train/lbp/feature_pool.hpp"
#include "train/lbp/weak_fit.hpp"
#include "train/negative_miner.hpp"
#include "train/wald_threshold.hpp"

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

// The cascade so far as the miner's classifier, evaluated by the detectors' own code (common/cascade_eval.hpp).
class CascadeClassifier : public WindowClassifier {
public:
    explicit CascadeClassifier(const LbpCascade& cascade) : cascade_(cascade), view_(view_of(cascade)) {}

    std::unique_ptr<Level> prepare(const GrayImage& level) const override {
        auto out = std::make_unique<IntegralLevel>(view_);
        if (!cascade_.stages.empty()) compute_integral(level.view(), out->sums);
        return out;
    }

private:
    struct IntegralLevel : Level {
        explicit IntegralLevel(const LbpCascadeView& v) : view(v) {}
        bool accepts(int x, int y) const override {
            if (view.num_stages == 0) return true;
            int rejected_at = 0;
            double score = 0.0;
            return accept_window(view, LbpWindow<IntegralView>{view, sums.view(), x, y}, rejected_at, score);
        }
        const LbpCascadeView& view;
        IntegralImage sums;
    };

    const LbpCascade& cascade_;
    const LbpCascadeView view_;
};

// Slots [0, positives) hold the positives, [positives, positives + negatives) the negative pool.
class Trainer {
public:
    Trainer(const LbpTrainConfig& config, const LbpTrainingData& data, LbpTrainingObserver& observer)
        : config_(config),
          data_(data),
          observer_(observer),
          settings_(training_settings(config, data)),
          positives_(static_cast<int>(data.positives.size())),
          negatives_(config.negatives),
          calibrates_(calibration_positives(config, data)),
          pool_(sample_lbp_features(config.window, config.features, config.seed)),
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

    LbpTrainingResult run();

private:
    int slots() const { return positives_ + negatives_; }
    std::vector<int> live_slots(int first, int end) const;
    // Live positives that fit the weak learners (all live positives without calibration).
    std::vector<int> live_fitting_positives() const;
    int calibration_total() const;
    int fitting_total() const { return positives_ - calibration_total(); }
    int live_negatives() const { return static_cast<int>(live_slots(positives_, slots()).size()); }
    double negative_reach() const {
        return pool_at_refill_ > 0 ? reach_at_refill_ * live_negatives() / pool_at_refill_ : 0.0;
    }
    int accepted_fitting_positives() const;
    // Running sum of weak learners [0, count) for slot s from the code table; `decided` gets -1 when a stage
    // rejects it, +1 when a stage accepts it, 0 when it passes them all.
    double replay(int s, std::size_t count, int& decided) const;

    void start();
    void resume(const LbpTrainingState& state);
    void place_negatives(const std::vector<int>& targets, const std::vector<NegativeWindow>& windows,
                         const std::vector<GrayImage>& crops);
    void raise_acceptance(const std::vector<int>& negatives);
    bool refill();
    void add_weak();
    RejectionInput rejection_input() const;
    void reject_below(float threshold);
    float accept_above_negatives();
    double finalize();  // returns the miss rate it leaves on the positives that set the thresholds
    void checkpoint();

    const LbpTrainConfig& config_;
    const LbpTrainingData& data_;
    LbpTrainingObserver& observer_;
    const TrainingSettings settings_;
    const int positives_;
    const int negatives_;
    const std::vector<char> calibrates_;  // per positive
    const std::vector<LbpFeature> pool_;
    std::unordered_map<std::uint64_t, int> pool_index_;
    CodeTable codes_;
    std::vector<double> score_;  // running sum per slot
    std::vector<char> live_;
    std::vector<char> accepted_;              // per slot: decided by an acceptance threshold (not live)
    std::vector<NegativeWindow> provenance_;  // per negative slot
    LbpCascade cascade_;
    std::vector<int> weak_feature_;  // pool index of each weak learner
    NegativeMiner miner_;
    double reach_at_refill_ = 1.0;
    int pool_at_refill_ = 0;
    long long windows_scanned_ = 0, negatives_mined_ = 0;
    long long scanned_since_weak_ = 0;
    int mined_since_weak_ = 0;
};

int Trainer::accepted_fitting_positives() const {
    int n = 0;
    for (int s = 0; s < positives_; ++s)
        n += accepted_[static_cast<std::size_t>(s)] && !calibrates_[static_cast<std::size_t>(s)] ? 1 : 0;
    return n;
}

double Trainer::replay(int s, std::size_t count, int& decided) const {
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

std::vector<int> Trainer::live_fitting_positives() const {
    std::vector<int> out;
    for (int s : live_slots(0, positives_))
        if (!calibrates_[static_cast<std::size_t>(s)]) out.push_back(s);
    return out;
}

int Trainer::calibration_total() const {
    int n = 0;
    for (char c : calibrates_) n += c;
    return n;
}

std::vector<int> Trainer::live_slots(int first, int end) const {
    std::vector<int> out;
    for (int s = first; s < end; ++s)
        if (live_[static_cast<std::size_t>(s)]) out.push_back(s);
    return out;
}

void Trainer::start() {
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

void Trainer::resume(const LbpTrainingState& state) {
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
    std::ostringstream note;
    note << "resumed from " << config_.checkpoint << " at " << cascade_.weaks.size() << " weak learners";
    observer_.note(note.str());
}

// Puts negative windows into the given slots; each must pass the cascade so far. (With acceptance thresholds
// the miner's cascade passed windows that an acceptance threshold took early; once that threshold is raised, a
// later stage may reject them: their slots stay free.)
void Trainer::place_negatives(const std::vector<int>& targets, const std::vector<NegativeWindow>& windows,
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
void Trainer::raise_acceptance(const std::vector<int>& negatives) {
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

bool Trainer::refill() {
    const int needed = negatives_ - live_negatives();
    const MiningBatch batch = miner_.mine(needed, CascadeClassifier(cascade_));
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

RejectionInput Trainer::rejection_input() const {
    RejectionInput in;
    for (int s : live_fitting_positives()) in.positives.push_back(score_[static_cast<std::size_t>(s)]);
    for (int s : live_slots(positives_, slots())) in.negatives.push_back(score_[static_cast<std::size_t>(s)]);
    in.positives_rejected = fitting_total() - static_cast<int>(in.positives.size()) - accepted_fitting_positives();
    in.budget = rejection_budget(config_.alpha, fitting_total(), static_cast<int>(cascade_.weaks.size()) - 1,
                                 config_.weak_learners);
    in.alpha = config_.alpha;
    return in;
}

void Trainer::reject_below(float threshold) {
    for (int s = 0; s < slots(); ++s) {
        auto& live = live_[static_cast<std::size_t>(s)];
        if (live && score_[static_cast<std::size_t>(s)] < threshold) live = 0;
    }
}

// WaldBoost's acceptance threshold with beta = 0: the smallest float above every live negative's sum (+inf
// when no negative is live); the live samples at or above it are decided.
float Trainer::accept_above_negatives() {
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

void Trainer::add_weak() {
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
    const LbpWeakFit fit = fit_lbp_weak(codes_, selection, all, config_.smoothing, config_.threads);

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
double Trainer::finalize() {
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

void Trainer::checkpoint() {
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
    save_lbp_checkpoint(config_.checkpoint, state, settings_);
    observer_.checkpointed(static_cast<int>(cascade_.weaks.size()), config_.checkpoint);
}

LbpTrainingResult Trainer::run() {
    start();
    LbpTrainingResult result;
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
    checkpoint();  // the state before finalize, which only the written model gets
    result.fpr_estimate = negative_reach();
    result.calibration_miss_rate = finalize();
    result.cascade = cascade_;
    result.stopped_because = why.str();
    result.windows_scanned = windows_scanned_;
    result.negatives_mined = negatives_mined_;
    return result;
}

}  // namespace

LbpTrainingResult train_lbp(const LbpTrainConfig& config, const LbpTrainingData& data, LbpTrainingObserver& observer) {
    validate(config);
    if (data.positives.empty()) throw InputError("--pos", "no positive samples");
    if (!data.positive_groups.empty() && data.positive_groups.size() != data.positives.size())
        throw std::invalid_argument("train_lbp: one group per positive expected");
    for (const GrayImage& p : data.positives)
        if (!(p.size() == config.window)) throw std::invalid_argument("train_lbp: a positive is not window-sized");
    if (data.negatives.empty()) throw InputError("--neg", "no negative images");
    return Trainer(config, data, observer).run();
}

}  // namespace cascade::train::lbp
