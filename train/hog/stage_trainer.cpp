#include "train/hog/stage_trainer.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "common/hog_eval.hpp"
#include "common/parallel.hpp"
#include "data/random.hpp"
#include "train/hog/weak_response.hpp"

namespace cascade::train::hog {

namespace {

constexpr std::uint64_t kBlockSampleKey = 0x4b4c4f43;  // key of the block samples' random streams

struct Candidate {
    HogWeak weak;
    double score = 1.0;
};

// The samples: positives first, then negatives.
class Samples {
public:
    Samples(const WindowSet& positives, const WindowSet& negatives)
        : positives_(positives), negatives_(negatives), num_positives_(positives.size()) {}

    int size() const { return num_positives_ + negatives_.size(); }
    int num_positives() const { return num_positives_; }
    bool positive(int i) const { return i < num_positives_; }

    // Descriptors of `block` for every sample, sample-major.
    std::vector<float> descriptors(const Rect& block) const {
        std::vector<float> out(static_cast<std::size_t>(size()) * kHogBlockDims);
        for (int i = 0; i < size(); ++i) {
            const HogSampler view = positive(i) ? positives_.view(i) : negatives_.view(i - num_positives_);
            hog_block_descriptor(view, 0, 0, block, &out[static_cast<std::size_t>(i) * kHogBlockDims]);
        }
        return out;
    }

private:
    const WindowSet& positives_;
    const WindowSet& negatives_;
    int num_positives_;
};

// The projections of `weak` on every sample, whose descriptors `v` holds (sample-major).
std::vector<float> projections_of(const HogWeak& weak, const std::vector<float>& v) {
    std::vector<float> p(v.size() / kHogBlockDims);
    for (std::size_t i = 0; i < p.size(); ++i) p[i] = hog_projection(weak, &v[i * kHogBlockDims]);
    return p;
}

// Adds `weak`'s response on each of `windows` to `sums`.
void add_responses(const HogWeak& weak, const WindowSet& windows, std::vector<double>& sums) {
    float descriptor[kHogBlockDims];
    for (int i = 0; i < windows.size(); ++i) {
        hog_block_descriptor(windows.view(i), 0, 0, weak.block, descriptor);
        sums[static_cast<std::size_t>(i)] += hog_response(weak, hog_projection(weak, descriptor));
    }
}

// The stage threshold on the calibration positives' sums and the negatives' (the tail of `sums`), or on
// `sums` (fitting positives first) without calibration positives.
void set_stage_threshold(const std::vector<double>& sums, int num_positives,
                         const std::vector<double>& calibration_sums, double min_hit_rate, StageResult& result) {
    if (calibration_sums.empty()) return set_threshold(sums, num_positives, min_hit_rate, result);
    std::vector<double> calibrated = calibration_sums;
    calibrated.insert(calibrated.end(), sums.begin() + num_positives, sums.end());
    set_threshold(calibrated, static_cast<int>(calibration_sums.size()), min_hit_rate, result);
}

}  // namespace

float threshold_keeping(std::vector<double> sums, std::size_t keep) {
    std::nth_element(sums.begin(), sums.begin() + static_cast<std::ptrdiff_t>(keep - 1), sums.end(), std::greater<>());
    const double kth = sums[keep - 1];
    float t = static_cast<float>(kth);
    if (static_cast<double>(t) > kth) t = std::nextafter(t, -std::numeric_limits<float>::infinity());
    return t;
}

void set_threshold(const std::vector<double>& sums, int num_positives, double min_hit_rate, StageResult& result) {
    const auto keep = static_cast<std::size_t>(
        std::clamp(static_cast<int>(std::ceil(min_hit_rate * num_positives - 1e-9)), 1, num_positives));
    const auto positives_end = sums.begin() + num_positives;
    result.threshold = threshold_keeping(std::vector<double>(sums.begin(), positives_end), keep);
    const auto passes = [&](double s) { return !(s < result.threshold); };  // run_stages' test
    result.hit_rate = static_cast<double>(std::count_if(sums.begin(), positives_end, passes)) / num_positives;
    result.false_alarm = static_cast<double>(std::count_if(positives_end, sums.end(), passes)) /
                         static_cast<double>(sums.size() - static_cast<std::size_t>(num_positives));
}

StageResult train_stage(const WindowSet& positives, const WindowSet& negatives, const std::vector<double>& initial_sums,
                        const Calibration& calibration, const std::vector<Rect>& pool, int stage_index,
                        const StageOptions& options, const std::function<void(const WeakReport&)>& on_weak) {
    const Samples samples(positives, negatives);
    const int n = samples.size(), num_pos = samples.num_positives();
    std::vector<int> labels(static_cast<std::size_t>(n));
    std::vector<double> weights(static_cast<std::size_t>(n)), sums = initial_sums;
    sums.resize(static_cast<std::size_t>(n), 0.0);
    std::vector<double> calibration_sums = calibration.sums;
    if (calibration.windows) calibration_sums.resize(static_cast<std::size_t>(calibration.windows->size()), 0.0);
    double class_total[2] = {0.0, 0.0};
    for (int i = 0; i < n; ++i) {
        const auto k = static_cast<std::size_t>(i);
        labels[k] = samples.positive(i) ? 1 : -1;
        weights[k] = std::exp(-labels[k] * sums[k]);
        class_total[samples.positive(i) ? 1 : 0] += weights[k];
    }
    for (int i = 0; i < n; ++i) weights[static_cast<std::size_t>(i)] *= 0.5 / class_total[samples.positive(i) ? 1 : 0];
    const int draws = std::max(1, static_cast<int>(std::lround(options.resample_factor * n)));

    StageResult result;
    for (int round = 0; round < options.max_weaks; ++round) {
        double total = 0.0;
        for (double w : weights) total += w;
        for (double& w : weights) w /= total;
        const std::vector<int> multiplicities = resample_multiplicities(weights, draws);

        data::Random random(options.seed, {kBlockSampleKey, static_cast<std::uint64_t>(stage_index), static_cast<std::uint64_t>(round)});
        std::vector<int> picks = random.permutation(static_cast<int>(pool.size()));
        picks.resize(std::min(picks.size(), static_cast<std::size_t>(options.blocks_per_round)));
        std::vector<Candidate> candidates(picks.size());
        parallel_for(
            static_cast<int>(picks.size()),
            [&](int k) {
                const Rect& block = pool[static_cast<std::size_t>(picks[static_cast<std::size_t>(k)])];
                const std::vector<float> v = samples.descriptors(block);
                Candidate& c = candidates[static_cast<std::size_t>(k)];
                c.weak = train_block_svm(block, v, labels, multiplicities, options.svm);
                c.score = fit_response(c.weak, projections_of(c.weak, v), labels, weights, options.bins);
            },
            options.threads);
        const auto best = std::min_element(candidates.begin(), candidates.end(),
                                           [](const Candidate& a, const Candidate& b) { return a.score < b.score; });
        if (options.bins == 0 && best->score >= 0.5) break;  // no candidate beats chance: the stage cannot improve

        const HogWeak weak = best->weak;
        const std::vector<float> p = projections_of(weak, samples.descriptors(weak.block));
        for (int i = 0; i < n; ++i) {
            const auto k = static_cast<std::size_t>(i);
            const float response = hog_response(weak, p[k]);
            sums[k] += response;
            weights[k] *= std::exp(-static_cast<double>(response) * labels[k]);
        }
        result.weaks.push_back(weak);
        if (calibration.windows) add_responses(weak, *calibration.windows, calibration_sums);

        set_stage_threshold(sums, num_pos, calibration_sums, options.min_hit_rate, result);

        on_weak({round, weak.block, best->score, result.threshold, result.hit_rate, result.false_alarm});
        if (result.false_alarm <= options.max_false_alarm) break;
    }
    return result;
}

}  // namespace cascade::train::hog
