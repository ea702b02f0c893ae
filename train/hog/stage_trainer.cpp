#include "train/hog/stage_trainer.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "common/hog_eval.hpp"
#include "common/parallel.hpp"
#include "data/random.hpp"

namespace cascade::train::hog {

namespace {

constexpr std::uint64_t kBlockSampleKey = 0x4b4c4f43;  // key of the block samples' random streams

struct Candidate {
    HogWeak weak;
    double error = 1.0;
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
            const HogIntegralView view = positive(i) ? positives_.view(i) : negatives_.view(i - num_positives_);
            hog_block_descriptor(view, 0, 0, block, &out[static_cast<std::size_t>(i) * kHogBlockDims]);
        }
        return out;
    }

private:
    const WindowSet& positives_;
    const WindowSet& negatives_;
    int num_positives_;
};

}  // namespace

float threshold_keeping(std::vector<double> sums, std::size_t keep) {
    std::nth_element(sums.begin(), sums.begin() + static_cast<std::ptrdiff_t>(keep - 1), sums.end(), std::greater<>());
    const double kth = sums[keep - 1];
    float t = static_cast<float>(kth);
    if (static_cast<double>(t) > kth) t = std::nextafter(t, -std::numeric_limits<float>::infinity());
    return t;
}

StageResult train_stage(const WindowSet& positives, const WindowSet& negatives, const std::vector<Rect>& pool,
                        int stage_index, const StageOptions& options,
                        const std::function<void(const WeakReport&)>& on_weak) {
    const Samples samples(positives, negatives);
    const int n = samples.size(), num_pos = samples.num_positives(), num_neg = n - num_pos;
    std::vector<int> labels(static_cast<std::size_t>(n));
    std::vector<double> weights(static_cast<std::size_t>(n)), sums(static_cast<std::size_t>(n), 0.0);
    for (int i = 0; i < n; ++i) {
        labels[static_cast<std::size_t>(i)] = samples.positive(i) ? 1 : -1;
        weights[static_cast<std::size_t>(i)] = samples.positive(i) ? 0.5 / num_pos : 0.5 / num_neg;
    }
    const auto keep = static_cast<std::size_t>(
        std::clamp(static_cast<int>(std::ceil(options.min_hit_rate * num_pos - 1e-9)), 1, num_pos));
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
                c.error = 0.0;
                for (int i = 0; i < n; ++i)
                    if (hog_weak_fires(c.weak, &v[static_cast<std::size_t>(i) * kHogBlockDims]) != samples.positive(i))
                        c.error += weights[static_cast<std::size_t>(i)];
            },
            options.threads);
        const auto best = std::min_element(candidates.begin(), candidates.end(),
                                           [](const Candidate& a, const Candidate& b) { return a.error < b.error; });
        if (best->error >= 0.5) break;  // no candidate beats chance: the stage cannot improve

        const double error = std::max(best->error, 1e-10);
        HogWeak weak = best->weak;
        weak.vote = static_cast<float>(0.5 * std::log((1.0 - error) / error));
        const std::vector<float> v = samples.descriptors(weak.block);
        for (int i = 0; i < n; ++i) {
            const bool fires = hog_weak_fires(weak, &v[static_cast<std::size_t>(i) * kHogBlockDims]);
            const float response = fires ? weak.vote : -weak.vote;
            sums[static_cast<std::size_t>(i)] += response;
            weights[static_cast<std::size_t>(i)] *= std::exp(-static_cast<double>(response) * labels[static_cast<std::size_t>(i)]);
        }
        result.weaks.push_back(weak);

        const std::vector<double> positive_sums(sums.begin(), sums.begin() + num_pos);
        result.threshold = threshold_keeping(positive_sums, keep);
        const auto passes = [&](double s) { return !(s < result.threshold); };  // run_stages' test
        result.hit_rate = static_cast<double>(std::count_if(sums.begin(), sums.begin() + num_pos, passes)) / num_pos;
        result.false_alarm = static_cast<double>(std::count_if(sums.begin() + num_pos, sums.end(), passes)) / num_neg;

        on_weak({round, weak.block, best->error, weak.vote, result.threshold, result.hit_rate, result.false_alarm});
        if (result.false_alarm <= options.max_false_alarm) break;
    }
    return result;
}

}  // namespace cascade::train::hog
