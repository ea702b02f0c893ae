#include "train/lbp/stage_boost.hpp"

#include <algorithm>
#include <cmath>

#include "train/boost_weights.hpp"

namespace cascade::train::lbp {

namespace {

constexpr float kThresholdEps = 1e-5f;  // OpenCV's THRESHOLD_EPS
constexpr double kLogitZMax = 4.0;       // |z| clamp of LogitBoost's working response (FHT 2000)
constexpr double kMinWeight = 1e-12;

// The boosting state of one stage over its samples (positives first, then negatives).
class StageBooster {
public:
    StageBooster(const std::vector<int>& positives, const std::vector<int>& negatives, BoostType type)
        : type_(type), positives_(static_cast<int>(positives.size())) {
        slots_ = positives;
        slots_.insert(slots_.end(), negatives.begin(), negatives.end());
        const std::size_t n = slots_.size();
        labels_.resize(n);
        for (std::size_t i = 0; i < n; ++i) labels_[i] = static_cast<int>(i) < positives_ ? 1.0 : -1.0;
        sums_.assign(n, 0.0);
        weights_.assign(n, 1.0 / static_cast<double>(n));
        if (type_ == BoostType::logit) logit_weights();
    }

    RegressionSamples samples(double trim) const {
        const bool logit = type_ == BoostType::logit;
        RegressionSamples s;
        for (int i : trim_weights(weights_, trim)) {
            const std::size_t k = static_cast<std::size_t>(i);
            s.slots.push_back(slots_[k]);
            s.weights.push_back(weights_[k]);
            s.targets.push_back(logit ? working_response(k) : labels_[k]);
        }
        return s;
    }

    // Adds the weak learner's responses to the sums and reweights (discrete: scales it by ln((1-err)/err)).
    void add(const CodeTable& codes, StageWeak& weak) {
        if (type_ == BoostType::discrete) scale_discrete(codes, weak);
        for (std::size_t i = 0; i < slots_.size(); ++i) {
            const float h = weak.response(codes, slots_[i]);
            sums_[i] += h;
            if (type_ == BoostType::discrete)
                weights_[i] *= (h >= 0.f) != (labels_[i] > 0) ? std::exp(discrete_c_) : 1.0;
            else if (type_ != BoostType::logit)
                weights_[i] *= std::exp(-labels_[i] * h);
        }
        if (type_ == BoostType::logit) logit_weights();
        normalise();
    }

    const std::vector<double>& sums() const { return sums_; }
    int positives() const { return positives_; }

private:
    double probability(std::size_t i) const { return 1.0 / (1.0 + std::exp(-2.0 * sums_[i])); }
    double working_response(std::size_t i) const {
        const double p = probability(i), y = labels_[i] > 0 ? 1.0 : 0.0;
        return std::clamp((y - p) / std::max(p * (1.0 - p), kMinWeight), -kLogitZMax, kLogitZMax);
    }
    void logit_weights() {
        for (std::size_t i = 0; i < slots_.size(); ++i) {
            const double p = probability(i);
            weights_[i] = std::max(p * (1.0 - p), kMinWeight);
        }
        normalise();
    }
    void scale_discrete(const CodeTable& codes, StageWeak& weak) {
        double wrong = 0.0, total = 0.0;
        for (std::size_t i = 0; i < slots_.size(); ++i) {
            total += weights_[i];
            if ((weak.response(codes, slots_[i]) >= 0.f) != (labels_[i] > 0)) wrong += weights_[i];
        }
        const double err = std::clamp(wrong / total, 1e-10, 1.0 - 1e-10);
        discrete_c_ = std::log((1.0 - err) / err);
        for (float& r : weak.responses) r = static_cast<float>(r * discrete_c_);
        for (float& r : weak.tree.leaves) r = static_cast<float>(r * discrete_c_);
    }
    void normalise() {
        double total = 0.0;
        for (double w : weights_) total += w;
        for (double& w : weights_) w /= total;
    }

    BoostType type_;
    int positives_;
    std::vector<int> slots_;
    std::vector<double> labels_, sums_, weights_;
    double discrete_c_ = 0.0;
};

// The stage threshold for `min_hit_rate` and the rates it gives.
StageProgress rates(const std::vector<double>& sums, int positives, double min_hit_rate, float& threshold) {
    std::vector<double> sorted(sums.begin(), sums.begin() + positives);
    std::sort(sorted.begin(), sorted.end());
    const int keep = static_cast<int>(std::lround(min_hit_rate * positives));
    const int at = std::clamp(positives - keep, 0, positives - 1);
    threshold = static_cast<float>(sorted[static_cast<std::size_t>(at)]) - kThresholdEps;
    int hits = 0, false_alarms = 0;
    for (std::size_t i = 0; i < sums.size(); ++i)
        if (sums[i] >= static_cast<double>(threshold)) (static_cast<int>(i) < positives ? hits : false_alarms) += 1;
    const int negatives = static_cast<int>(sums.size()) - positives;
    StageProgress p;
    p.hit_rate = static_cast<double>(hits) / positives;
    p.false_alarm = negatives > 0 ? static_cast<double>(false_alarms) / negatives : 0.0;
    return p;
}

}  // namespace

BoostedStage boost_stage(const CodeTable& codes, const std::vector<int>& positives, const std::vector<int>& negatives,
                         const StageBoostParams& params, const std::function<void(const StageProgress&)>& progress) {
    StageBooster booster(positives, negatives, params.type);
    BoostedStage stage;
    while (static_cast<int>(stage.weaks.size()) < params.max_weak_count) {
        const RegressionSamples samples = booster.samples(1.0 - params.weight_trim_rate);
        StageWeak weak;
        if (params.max_depth > 1) {
            weak.tree = grow_ordered_tree(codes, samples, params.type, params.max_depth, params.threads);
        } else {
            const SubsetStump fit = fit_subset_stump(codes, samples, params.type, params.threads, params.ordered_codes);
            weak = {fit.feature, fit.responses, fit.cut, {}};
        }
        booster.add(codes, weak);
        stage.weaks.push_back(weak);
        stage.last = rates(booster.sums(), booster.positives(), params.min_hit_rate, stage.threshold);
        stage.last.weak_count = static_cast<int>(stage.weaks.size());
        progress(stage.last);
        if (stage.last.false_alarm <= params.max_false_alarm) break;
    }
    return stage;
}

}  // namespace cascade::train::lbp
