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
    int samples[kLbpCodes];
};

// Weights per bin, and samples per bin where `count` (only a bin prior needs them: the inner loop of training).
void histogram(const CodeTable& codes, int feature, const WeightedSlots& s, const CodeBins& bins, bool count,
               Histogram& h) {
    std::fill(std::begin(h.positive), std::end(h.positive), 0.0);
    std::fill(std::begin(h.negative), std::end(h.negative), 0.0);
    const std::uint8_t* row = codes.feature(feature);
    const std::uint8_t* bin = bins.bin.data();
    for (std::size_t i = 0; i < s.positives.size(); ++i) h.positive[bin[row[s.positives[i]]]] += s.positive_weights[i];
    for (std::size_t i = 0; i < s.negatives.size(); ++i) h.negative[bin[row[s.negatives[i]]]] += s.negative_weights[i];
    if (!count) return;
    std::fill(std::begin(h.samples), std::end(h.samples), 0);
    for (int slot : s.positives) ++h.samples[bin[row[slot]]];
    for (int slot : s.negatives) ++h.samples[bin[row[slot]]];
}

// The part of a bin's response that its sample count keeps (TableFit::bin_prior).
double kept(int samples, double prior) { return prior > 0.0 ? samples / (samples + prior) : 1.0; }

// Bin b's response without the shrinkage.
double response(const Histogram& h, int b, double eps, double prior) {
    return kept(h.samples[b], prior) * 0.5 * std::log((h.positive[b] + eps) / (h.negative[b] + eps));
}

double normaliser(const Histogram& h, int bins, double eps, double prior) {
    double z = 0.0;
    for (int b = 0; b < bins; ++b) {
        const double odds = (h.positive[b] + eps) / (h.negative[b] + eps);
        const double ratio = prior > 0.0 ? std::pow(odds, 0.5 * kept(h.samples[b], prior)) : std::sqrt(odds);  // exp(h)
        z += h.positive[b] / ratio + h.negative[b] * ratio;
    }
    return z;
}

double epsilon(const WeightedSlots& s, double smoothing) {
    return smoothing / static_cast<double>(std::max<std::size_t>(1, s.positives.size() + s.negatives.size()));
}

}  // namespace

LbpWeakFit fit_lbp_weak(const CodeTable& codes, const WeightedSlots& selection, const WeightedSlots& all,
                        const TableFit& table, int threads) {
    const int n = codes.features();
    const CodeBins& bins = table.bins;
    const double eps_select = epsilon(selection, table.smoothing);
    std::vector<double> z(static_cast<std::size_t>(n));
    parallel_for((n + kFeaturesPerTask - 1) / kFeaturesPerTask,
                 [&](int task) {
                     Histogram h;
                     for (int f = task * kFeaturesPerTask; f < std::min(n, (task + 1) * kFeaturesPerTask); ++f) {
                         histogram(codes, f, selection, bins, table.bin_prior > 0.0, h);
                         z[static_cast<std::size_t>(f)] = normaliser(h, bins.count, eps_select, table.bin_prior);
                     }
                 },
                 threads);

    LbpWeakFit fit;
    fit.feature = static_cast<int>(std::min_element(z.begin(), z.end()) - z.begin());
    fit.z = z[static_cast<std::size_t>(fit.feature)];
    Histogram h;
    histogram(codes, fit.feature, all, bins, table.bin_prior > 0.0, h);
    const double eps = epsilon(all, table.smoothing);
    double wrong = 0.0, total = 0.0;
    for (int b = 0; b < bins.count; ++b) {
        wrong += std::min(h.positive[b], h.negative[b]);
        total += h.positive[b] + h.negative[b];
    }
    for (int c = 0; c < kLbpCodes; ++c) {
        const int b = bins.bin[static_cast<std::size_t>(c)];
        fit.responses[static_cast<std::size_t>(c)] =
            static_cast<float>(table.shrinkage * response(h, b, eps, table.bin_prior));
    }
    fit.error = total > 0.0 ? wrong / total : 0.0;
    return fit;
}

}  // namespace cascade::train::lbp
