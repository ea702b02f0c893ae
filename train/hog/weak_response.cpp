#include "train/hog/weak_response.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "common/hog_eval.hpp"

namespace cascade::train::hog {

namespace {

double fit_vote(HogWeak& weak, const std::vector<float>& projections, const std::vector<int>& labels,
                const std::vector<double>& weights) {
    double error = 0.0, total = 0.0;
    for (std::size_t i = 0; i < projections.size(); ++i) {
        total += weights[i];
        if ((projections[i] >= 0.f) != (labels[i] > 0)) error += weights[i];
    }
    error /= total;
    const double clamped = std::max(error, 1e-10);
    set_vote(weak, static_cast<float>(0.5 * std::log((1.0 - clamped) / clamped)));
    return error;
}

// Cuts at the weighted quantiles 1/bins, 2/bins, ... of the projections: each cut the projection of the first
// sample (in increasing projection) past that share of the weight, so that p >= cut puts it in the upper bin;
// none at the lowest projection or twice at one.
std::vector<float> quantile_cuts(const std::vector<float>& projections, const std::vector<double>& weights,
                                 double total, int bins) {
    std::vector<int> order(projections.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](int a, int b) {
        return projections[static_cast<std::size_t>(a)] < projections[static_cast<std::size_t>(b)];
    });
    std::vector<float> cuts;
    double below = 0.0;
    int next = 1;
    for (const int i : order) {
        const float p = projections[static_cast<std::size_t>(i)];
        if (next < bins && below >= total * next / bins) {
            const float lowest = projections[static_cast<std::size_t>(order.front())];  // a cut there splits nothing
            if (p > lowest && (cuts.empty() || p > cuts.back())) cuts.push_back(p);
            while (next < bins && below >= total * next / bins) ++next;
        }
        below += weights[static_cast<std::size_t>(i)];
    }
    return cuts;
}

template <class Weak>
double fit_bins(Weak& weak, const std::vector<float>& projections, const std::vector<int>& labels,
                const std::vector<double>& weights, int bins) {
    const double total = std::accumulate(weights.begin(), weights.end(), 0.0);
    const std::vector<float> cuts = quantile_cuts(projections, weights, total, bins);
    weak.num_cuts = static_cast<int>(cuts.size());
    std::fill(std::begin(weak.cuts), std::end(weak.cuts), 0.f);
    std::copy(cuts.begin(), cuts.end(), weak.cuts);
    std::vector<double> positive(cuts.size() + 1, 0.0), negative(cuts.size() + 1, 0.0);
    for (std::size_t i = 0; i < projections.size(); ++i) {
        const auto bin = static_cast<std::size_t>(std::upper_bound(cuts.begin(), cuts.end(), projections[i]) - cuts.begin());
        (labels[i] > 0 ? positive : negative)[bin] += weights[i] / total;
    }
    const double eps = 0.5 / static_cast<double>(projections.size());
    double z = 0.0;
    std::fill(std::begin(weak.responses), std::end(weak.responses), 0.f);
    for (std::size_t k = 0; k < positive.size(); ++k) {
        weak.responses[k] = static_cast<float>(0.5 * std::log((positive[k] + eps) / (negative[k] + eps)));
        z += 2.0 * std::sqrt(positive[k] * negative[k]);
    }
    weak.slope = 0.f;
    return z;
}

}  // namespace

double fit_response(HogWeak& weak, const std::vector<float>& projections, const std::vector<int>& labels,
                    const std::vector<double>& weights, int bins) {
    return bins == 0 ? fit_vote(weak, projections, labels, weights) : fit_bins(weak, projections, labels, weights, bins);
}

double fit_bins(CovWeak& weak, const std::vector<float>& projections, const std::vector<int>& labels,
                const std::vector<double>& weights, int bins) {
    return fit_bins<CovWeak>(weak, projections, labels, weights, bins);
}

}  // namespace cascade::train::hog
