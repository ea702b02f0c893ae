#include "train/lbp/weak_fit.hpp"

#include <algorithm>
#include <cmath>

#include "common/parallel.hpp"

namespace cascade::train::lbp {

namespace {

// Features per parallel task.
constexpr int kFeaturesPerTask = 64;

struct Histogram {
    double positive[kLbpCodes];
    double negative[kLbpCodes];
};

void histogram(const CodeTable& codes, int feature, const WeightedSlots& s, Histogram& h) {
    std::fill(std::begin(h.positive), std::end(h.positive), 0.0);
    std::fill(std::begin(h.negative), std::end(h.negative), 0.0);
    const std::uint8_t* row = codes.feature(feature);
    for (std::size_t i = 0; i < s.positives.size(); ++i) h.positive[row[s.positives[i]]] += s.positive_weights[i];
    for (std::size_t i = 0; i < s.negatives.size(); ++i) h.negative[row[s.negatives[i]]] += s.negative_weights[i];
}

double response(double positive, double negative, double eps) {
    return 0.5 * std::log((positive + eps) / (negative + eps));
}

double normaliser(const Histogram& h, double eps) {
    double z = 0.0;
    for (int c = 0; c < kLbpCodes; ++c) {
        const double ratio = std::sqrt((h.positive[c] + eps) / (h.negative[c] + eps));  // exp(h)
        z += h.positive[c] / ratio + h.negative[c] * ratio;
    }
    return z;
}

double epsilon(const WeightedSlots& s, double smoothing) {
    return smoothing / static_cast<double>(std::max<std::size_t>(1, s.positives.size() + s.negatives.size()));
}

}  // namespace

LbpWeakFit fit_lbp_weak(const CodeTable& codes, const WeightedSlots& selection, const WeightedSlots& all,
                        double smoothing, double shrinkage, int threads) {
    const int n = codes.features();
    const double eps_select = epsilon(selection, smoothing);
    std::vector<double> z(static_cast<std::size_t>(n));
    parallel_for((n + kFeaturesPerTask - 1) / kFeaturesPerTask,
                 [&](int task) {
                     Histogram h;
                     for (int f = task * kFeaturesPerTask; f < std::min(n, (task + 1) * kFeaturesPerTask); ++f) {
                         histogram(codes, f, selection, h);
                         z[static_cast<std::size_t>(f)] = normaliser(h, eps_select);
                     }
                 },
                 threads);

    LbpWeakFit fit;
    fit.feature = static_cast<int>(std::min_element(z.begin(), z.end()) - z.begin());
    fit.z = z[static_cast<std::size_t>(fit.feature)];
    Histogram h;
    histogram(codes, fit.feature, all, h);
    const double eps = epsilon(all, smoothing);
    double wrong = 0.0, total = 0.0;
    for (int c = 0; c < kLbpCodes; ++c) {
        fit.responses[static_cast<std::size_t>(c)] = static_cast<float>(shrinkage * response(h.positive[c], h.negative[c], eps));
        wrong += std::min(h.positive[c], h.negative[c]);
        total += h.positive[c] + h.negative[c];
    }
    fit.error = total > 0.0 ? wrong / total : 0.0;
    return fit;
}

}  // namespace cascade::train::lbp
