#include "train/lbp/subset_stump.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "common/parallel.hpp"

namespace cascade::train::lbp {

namespace {

constexpr int kFeaturesPerTask = 64;
constexpr double kRealEps = 1e-10;  // keeps real AdaBoost's leaves finite on a pure side

struct Split {
    double loss = HUGE_VAL;
    std::array<int, kLbpCodes> in_subset{};  // 1: the code goes to the subset side
    double sum[2] = {0.0, 0.0};                // weighted target sums: rest, subset
    double weight[2] = {0.0, 0.0};
    int cut = kLbpCodes;  // in code order (ordered codes)
};

// Best two-way split of one feature's codes: sort the codes by their weighted mean target (unless `ordered`),
// cut the order.
Split best_split(const std::uint8_t* codes, const RegressionSamples& s, bool ordered) {
    std::array<double, kLbpCodes> sum{}, weight{};
    for (std::size_t i = 0; i < s.slots.size(); ++i) {
        const std::uint8_t c = codes[s.slots[i]];
        sum[c] += s.weights[i] * s.targets[i];
        weight[c] += s.weights[i];
    }
    std::array<int, kLbpCodes> order;
    std::iota(order.begin(), order.end(), 0);
    const auto mean = [&](int c) { return weight[c] > 0.0 ? sum[c] / weight[c] : 0.0; };
    if (!ordered) std::sort(order.begin(), order.end(), [&](int a, int b) {
        const double ma = mean(a), mb = mean(b);
        return ma != mb ? ma < mb : a < b;
    });
    const double total_sum = std::accumulate(sum.begin(), sum.end(), 0.0);
    const double total_weight = std::accumulate(weight.begin(), weight.end(), 0.0);
    double left_sum = 0.0, left_weight = 0.0, best_gain = -HUGE_VAL;
    int best_cut = 0;
    for (int k = 0; k < kLbpCodes - 1; ++k) {
        left_sum += sum[order[k]];
        left_weight += weight[order[k]];
        const double right_weight = total_weight - left_weight;
        if (left_weight <= 0.0 || right_weight <= 0.0) continue;
        const double right_sum = total_sum - left_sum;
        const double gain = left_sum * left_sum / left_weight + right_sum * right_sum / right_weight;
        if (gain > best_gain) {
            best_gain = gain;
            best_cut = k + 1;
        }
    }
    Split split;
    double weighted_square = 0.0;
    for (std::size_t i = 0; i < s.slots.size(); ++i) weighted_square += s.weights[i] * s.targets[i] * s.targets[i];
    if (best_cut == 0) {  // every sample shows one code: no split, one side
        split.loss = weighted_square - (total_weight > 0.0 ? total_sum * total_sum / total_weight : 0.0);
        split.sum[0] = total_sum;
        split.weight[0] = total_weight;
        return split;
    }
    split.loss = weighted_square - best_gain;
    split.cut = best_cut;
    for (int k = best_cut; k < kLbpCodes; ++k) split.in_subset[order[k]] = 1;
    for (int c = 0; c < kLbpCodes; ++c) {
        split.sum[split.in_subset[c]] += sum[c];
        split.weight[split.in_subset[c]] += weight[c];
    }
    return split;
}

float leaf(BoostType type, double sum, double weight) {
    if (weight <= 0.0) return 0.f;
    const double mean = sum / weight;
    switch (type) {
        case BoostType::gentle: return static_cast<float>(mean);
        case BoostType::logit: return static_cast<float>(0.5 * mean);
        case BoostType::discrete: return mean >= 0.0 ? 1.f : -1.f;
        case BoostType::real: {
            const double positive = 0.5 * (weight + sum), negative = 0.5 * (weight - sum);
            return static_cast<float>(0.5 * std::log((positive + kRealEps) / (negative + kRealEps)));
        }
    }
    return 0.f;
}

}  // namespace

const char* opencv_boost_name(BoostType type) {
    switch (type) {
        case BoostType::discrete: return "DAB";
        case BoostType::real: return "RAB";
        case BoostType::logit: return "LB";
        case BoostType::gentle: return "GAB";
    }
    return "";
}

SubsetStump fit_subset_stump(const CodeTable& codes, const RegressionSamples& samples, BoostType type, int threads,
                             bool ordered) {
    const int n = codes.features();
    const int tasks = (n + kFeaturesPerTask - 1) / kFeaturesPerTask;
    std::vector<std::pair<double, int>> best(static_cast<std::size_t>(tasks), {HUGE_VAL, -1});
    parallel_for(tasks, [&](int t) {
        for (int f = t * kFeaturesPerTask; f < std::min(n, (t + 1) * kFeaturesPerTask); ++f) {
            const double loss = best_split(codes.feature(f), samples, ordered).loss;
            if (loss < best[static_cast<std::size_t>(t)].first) best[static_cast<std::size_t>(t)] = {loss, f};
        }
    }, threads);
    std::pair<double, int> chosen{HUGE_VAL, -1};
    for (const auto& b : best)
        if (b.second >= 0 && b.first < chosen.first) chosen = b;
    SubsetStump out;
    out.feature = chosen.second >= 0 ? chosen.second : 0;
    const Split split = best_split(codes.feature(out.feature), samples, ordered);
    out.loss = split.loss;
    out.cut = split.cut;
    const float rest = leaf(type, split.sum[0], split.weight[0]);
    const float subset = leaf(type, split.sum[1], split.weight[1]);
    for (int c = 0; c < kLbpCodes; ++c) out.responses[static_cast<std::size_t>(c)] = split.in_subset[c] ? subset : rest;
    return out;
}

}  // namespace cascade::train::lbp
