#include "train/wald_threshold.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace cascade::train {

namespace {

int below(const std::vector<double>& sorted, float threshold) {
    return static_cast<int>(std::lower_bound(sorted.begin(), sorted.end(), static_cast<double>(threshold)) -
                            sorted.begin());
}

// Candidate thresholds at each live positive within the budget, lowest first; `allowed` picks among them.
template <class Allowed>
Rejection largest_allowed(const RejectionInput& in, float floor_threshold, Allowed allowed) {
    std::vector<double> pos = in.positives, neg = in.negatives;
    std::sort(pos.begin(), pos.end());
    std::sort(neg.begin(), neg.end());
    const int spare = std::max(0, in.budget - in.positives_rejected);
    Rejection best{floor_threshold, below(pos, floor_threshold), below(neg, floor_threshold)};
    for (int k = 1; k <= std::min(spare, static_cast<int>(pos.size()) - 1); ++k) {
        const float threshold = float_floor(pos[static_cast<std::size_t>(k)]);
        const Rejection r{threshold, below(pos, threshold), below(neg, threshold)};
        if (r.positives > spare) break;
        if (threshold > best.threshold && allowed(r, pos.size(), neg.size())) best = r;
    }
    return best;
}

}  // namespace

float float_floor(double value) {
    if (value <= static_cast<double>(std::numeric_limits<float>::lowest())) return std::numeric_limits<float>::lowest();
    float f = static_cast<float>(value);
    if (static_cast<double>(f) > value) f = std::nextafter(f, -std::numeric_limits<float>::infinity());
    return f;
}

float float_above(double value) {
    float f = static_cast<float>(value);
    if (static_cast<double>(f) <= value) f = std::nextafter(f, std::numeric_limits<float>::infinity());
    return f;
}

int rejection_budget(double alpha, int positives, int stage, int stages) {
    return static_cast<int>(std::floor(alpha * positives * (stage + 1) / stages));
}

Rejection sprt_rejection(const RejectionInput& in) {
    return largest_allowed(
        in, float_floor(*std::min_element(in.positives.begin(), in.positives.end())),
        [&](const Rejection& r, std::size_t pos, std::size_t neg) {
            const double negative_fraction = neg ? static_cast<double>(r.negatives) / static_cast<double>(neg) : 0.0;
            return negative_fraction * in.alpha >= static_cast<double>(r.positives) / static_cast<double>(pos);
        });
}

Rejection final_rejection(const RejectionInput& in, float current) {
    return largest_allowed(in, current, [](const Rejection&, std::size_t, std::size_t) { return true; });
}

}  // namespace cascade::train
