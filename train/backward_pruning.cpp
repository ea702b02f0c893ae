#include "train/backward_pruning.hpp"

#include <algorithm>
#include <cmath>

#include "train/wald_threshold.hpp"

namespace cascade::train {

std::vector<float> backward_pruning_thresholds(const std::vector<std::vector<double>>& sums, double alpha) {
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
    return thresholds;
}

}  // namespace cascade::train
