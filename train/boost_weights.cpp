#include "train/boost_weights.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace cascade::train {

std::vector<double> class_weights(const std::vector<double>& scores, int label) {
    std::vector<double> w(scores.size());
    if (scores.empty()) return w;
    double top = -label * scores[0];
    for (double s : scores) top = std::max(top, -label * s);
    double total = 0.0;
    for (std::size_t i = 0; i < scores.size(); ++i) total += w[i] = std::exp(-label * scores[i] - top);
    for (double& v : w) v *= 0.5 / total;
    return w;
}

std::vector<int> trim_weights(const std::vector<double>& weights, double trim) {
    std::vector<int> order(weights.size());
    std::iota(order.begin(), order.end(), 0);
    if (trim <= 0.0) return order;
    std::sort(order.begin(), order.end(), [&](int a, int b) {
        const double wa = weights[static_cast<std::size_t>(a)], wb = weights[static_cast<std::size_t>(b)];
        return wa != wb ? wa > wb : a < b;
    });
    const double total = std::accumulate(weights.begin(), weights.end(), 0.0);
    double kept = 0.0;
    std::size_t n = 0;
    while (n < order.size() && kept < (1.0 - trim) * total) kept += weights[static_cast<std::size_t>(order[n++])];
    order.resize(std::max<std::size_t>(n, std::min<std::size_t>(1, order.size())));
    std::sort(order.begin(), order.end());
    return order;
}

}  // namespace cascade::train
