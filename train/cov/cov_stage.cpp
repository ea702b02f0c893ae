#include "train/cov/cov_stage.hpp"

#include <algorithm>
#include <cmath>

#include "common/parallel.hpp"
#include "data/random.hpp"
#include "train/cov/logitboost.hpp"
#include "train/cov/riemannian_mean.hpp"
#include "train/hog/stage_trainer.hpp"
#include "train/hog/weak_response.hpp"

namespace cascade::train::cov {

namespace {

constexpr std::uint64_t kRectKey = 0x52454354, kRoundKey = 0x524f554e, kMeanKey = 0x4d45414e;
constexpr int kCovSize = kCovFeatures * kCovFeatures;

struct Candidate {
    CovWeak weak;
    double score = HUGE_VAL;
};

// The stage's rectangles with their mapping.
std::vector<CovWeak> stage_maps(const CovSamples& samples, const std::vector<Rect>& pool, int stage_index,
                                const StageOptions& options) {
    std::vector<int> picks = data::Random(options.seed, {kRectKey, static_cast<std::uint64_t>(stage_index)})
                                 .permutation(static_cast<int>(pool.size()));
    picks.resize(std::min(picks.size(), static_cast<std::size_t>(options.rects_per_stage)));
    std::vector<Rect> rects;
    for (int pick : picks) rects.push_back(pool[static_cast<std::size_t>(pick)]);
    return rect_maps(samples, rects, static_cast<std::uint64_t>(stage_index), options);
}

std::vector<float> column(const float* table, int samples) {
    return std::vector<float>(table, table + static_cast<std::size_t>(samples) * kCovDims);
}

// The float projection weights . v + bias of every sample (the rounds' approximation of cov_projection).
std::vector<float> projections(const CovWeak& weak, const float* table, int samples) {
    std::vector<float> p(static_cast<std::size_t>(samples));
    for (int i = 0; i < samples; ++i) {
        double dot = weak.bias;
        for (int k = 0; k < kCovDims; ++k) dot += static_cast<double>(weak.weights[k]) * table[static_cast<std::size_t>(i) * kCovDims + k];
        p[static_cast<std::size_t>(i)] = static_cast<float>(dot);
    }
    return p;
}

Candidate logitboost_candidate(const CovWeak& map, const float* table, const WorkingSet& ws, int samples,
                               double ridge) {
    Candidate c;
    c.weak = map;
    const std::vector<double> fit =
        weighted_least_squares(column(table, samples), kCovDims, ws.z, ws.w, ridge, c.score);
    for (int k = 0; k < kCovDims; ++k) c.weak.weights[k] = static_cast<float>(fit[static_cast<std::size_t>(k)] / 2);
    c.weak.bias = static_cast<float>(fit[kCovDims] / 2);
    c.weak.num_cuts = 0;
    c.weak.slope = 1.f;
    c.weak.limit = static_cast<float>(kMaxWorkingResponse / 2);
    return c;
}

Candidate svm_candidate(const CovWeak& map, const float* table, const std::vector<int>& labels,
                        const std::vector<int>& multiplicities, const std::vector<double>& weights,
                        const StageOptions& options) {
    Candidate c;
    c.weak = map;
    const std::vector<float> x = column(table, static_cast<int>(labels.size()));
    const std::vector<float> w = hog::train_linear_svm(x, kCovDims, labels, multiplicities, options.svm);
    std::copy(w.begin(), w.begin() + kCovDims, c.weak.weights);
    c.weak.bias = w.back();
    c.score = hog::fit_bins(c.weak, projections(c.weak, table, static_cast<int>(labels.size())), labels, weights,
                            options.bins);
    return c;
}

// The response of `weak` as the rounds see it (float vectors).
double approximate_response(const CovWeak& weak, float p) {
    const double r = weak.num_cuts == 0 && weak.slope == 1.f ? p : [&] {
        int bin = 0;
        for (int j = 0; j < weak.num_cuts; ++j) bin += p >= weak.cuts[j] ? 1 : 0;
        return static_cast<double>(weak.responses[bin]) + weak.slope * static_cast<double>(p);
    }();
    return std::clamp(r, -static_cast<double>(weak.limit), static_cast<double>(weak.limit));
}

void set_rates(const std::vector<double>& sums, int positives, double min_hit_rate, StageResult& result) {
    hog::StageResult rated;
    hog::set_threshold(sums, positives, min_hit_rate, rated);
    result.threshold = rated.threshold;
    result.hit_rate = rated.hit_rate;
    result.false_alarm = rated.false_alarm;
}

}  // namespace

std::vector<CovWeak> rect_maps(const CovSamples& samples, const std::vector<Rect>& rects, std::uint64_t key,
                               const StageOptions& options) {
    std::vector<CovWeak> maps(rects.size());
    for (std::size_t r = 0; r < rects.size(); ++r) {
        maps[r].rect = rects[r];
        maps[r].mapping = options.mapping;
    }
    if (options.mapping != kCovTangent) return maps;
    std::vector<int> which = data::Random(options.seed, {kMeanKey, key}).permutation(samples.positives);
    which.resize(std::min(which.size(), static_cast<std::size_t>(options.mean_samples)));
    std::sort(which.begin(), which.end());
    const std::vector<double> covariances = rect_covariances(samples, which, rects, options.threads);
    const std::size_t per_rect = which.size() * kCovSize;
    parallel_for(
        static_cast<int>(maps.size()),
        [&](int r) {
            const auto first = covariances.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(r) * per_rect);
            std::vector<double> mu;
            karcher_mean(std::vector<double>(first, first + static_cast<std::ptrdiff_t>(per_rect)),
                         std::vector<double>(which.size(), 1.0), kCovFeatures, mu);
            const std::vector<double> m = inverse_sqrt(mu, kCovFeatures);
            std::copy(m.begin(), m.end(), maps[static_cast<std::size_t>(r)].mean_isqrt);
        },
        options.threads);
    return maps;
}

StageResult train_stage(const CovSamples& samples, const std::vector<Rect>& pool, int stage_index,
                        const StageOptions& options, const std::function<void(const WeakReport&)>& on_weak) {
    const int n = samples.size();
    const std::vector<CovWeak> maps = stage_maps(samples, pool, stage_index, options);
    const VectorTable table = sample_vectors(samples, maps, options.threads);
    std::vector<int> labels(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) labels[static_cast<std::size_t>(i)] = samples.positive(i) ? 1 : -1;
    std::vector<double> sums(static_cast<std::size_t>(n), 0.0), weights(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i)  // AdaBoost's: each class 1/2
        weights[static_cast<std::size_t>(i)] = 0.5 / (samples.positive(i) ? samples.positives : n - samples.positives);
    const int draws = std::max(1, static_cast<int>(std::lround(options.resample_factor * n)));

    StageResult result;
    for (int round = 0; round < options.max_weaks; ++round) {
        std::vector<int> picks = data::Random(options.seed, {kRoundKey, static_cast<std::uint64_t>(stage_index),
                                                             static_cast<std::uint64_t>(round)})
                                     .permutation(table.rects);
        picks.resize(std::min(picks.size(), static_cast<std::size_t>(options.rects_per_round)));
        const WorkingSet ws = options.kind == WeakKind::logitboost ? working_set(sums, labels) : WorkingSet{};
        const std::vector<int> multiplicities =
            options.kind == WeakKind::block_svm ? hog::resample_multiplicities(weights, draws) : std::vector<int>{};
        std::vector<Candidate> candidates(picks.size());
        parallel_for(
            static_cast<int>(picks.size()),
            [&](int k) {
                const int r = picks[static_cast<std::size_t>(k)];
                candidates[static_cast<std::size_t>(k)] =
                    options.kind == WeakKind::logitboost
                        ? logitboost_candidate(maps[static_cast<std::size_t>(r)], table.of(r), ws, n, options.ridge)
                        : svm_candidate(maps[static_cast<std::size_t>(r)], table.of(r), labels, multiplicities, weights,
                                        options);
            },
            options.threads);
        const auto best = std::min_element(candidates.begin(), candidates.end(),
                                           [](const Candidate& a, const Candidate& b) { return a.score < b.score; });
        const auto r = static_cast<std::size_t>(picks[static_cast<std::size_t>(best - candidates.begin())]);
        const std::vector<float> p = projections(best->weak, table.of(static_cast<int>(r)), n);
        double total = 0.0;
        for (int i = 0; i < n; ++i) {
            const auto k = static_cast<std::size_t>(i);
            const double h = approximate_response(best->weak, p[k]);
            sums[k] += h;
            weights[k] *= std::exp(-h * labels[k]);
            total += weights[k];
        }
        for (double& w : weights) w /= total;
        result.weaks.push_back(best->weak);
        set_rates(sums, samples.positives, options.min_hit_rate, result);
        on_weak({round, best->weak.rect, best->score, result.hit_rate, result.false_alarm});
        if (result.false_alarm <= options.max_false_alarm) break;
    }
    std::vector<double> exact(static_cast<std::size_t>(n), 0.0);
    add_responses(samples, result.weaks, exact, options.threads);
    set_rates(exact, samples.positives, options.min_hit_rate, result);
    return result;
}

}  // namespace cascade::train::cov
