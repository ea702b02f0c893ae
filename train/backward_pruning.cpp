#include "train/backward_pruning.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "train/wald_threshold.hpp"

namespace cascade::train {

namespace {

// The sums with +inf after the stage whose acceptance threshold a positive reaches.
std::vector<std::vector<double>> decided_sums(std::vector<std::vector<double>> sums, const std::vector<float>& accept) {
    if (accept.empty()) return sums;
    for (auto& s : sums)
        for (std::size_t t = 0; t + 1 < s.size(); ++t)
            if (s[t] >= static_cast<double>(accept[t])) {
                std::fill(s.begin() + static_cast<std::ptrdiff_t>(t) + 1, s.end(), std::numeric_limits<double>::infinity());
                break;
            }
    return sums;
}

float below_acceptance(float threshold, float accept) {
    threshold = std::min(threshold, std::numeric_limits<float>::max());
    if (accept <= threshold) threshold = std::nextafter(accept, -std::numeric_limits<float>::infinity());
    return threshold;
}

}  // namespace

std::vector<float> backward_pruning_thresholds(const std::vector<std::vector<double>>& raw_sums, double alpha,
                                               const std::vector<float>& accept) {
    const std::vector<std::vector<double>> sums = decided_sums(raw_sums, accept);
    const std::size_t stages = sums.front().size();
    std::vector<double> finals;
    for (const auto& s : sums) finals.push_back(s.back());
    std::sort(finals.begin(), finals.end());
    const std::size_t dropped =
        std::min(finals.size() - 1, static_cast<std::size_t>(std::floor(alpha * static_cast<double>(finals.size()))));
    std::vector<float> thresholds(stages);
    thresholds.back() = float_floor(finals[dropped]);
    std::vector<double> lowest(stages - 1, 0.0);
    bool first = true;
    for (const auto& s : sums) {
        if (s.back() < static_cast<double>(thresholds.back())) continue;  // dropped by the final threshold
        for (std::size_t t = 0; t + 1 < stages; ++t) lowest[t] = first ? s[t] : std::min(lowest[t], s[t]);
        first = false;
    }
    for (std::size_t t = 0; t + 1 < stages; ++t) thresholds[t] = float_floor(lowest[t]);
    const float none = std::numeric_limits<float>::infinity();
    for (std::size_t t = 0; t < stages; ++t) thresholds[t] = below_acceptance(thresholds[t], accept.empty() ? none : accept[t]);
    return thresholds;
}

}  // namespace cascade::train
