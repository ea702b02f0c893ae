#include "match/peaks.hpp"

#include <algorithm>

#include "common/grouping.hpp"

namespace cascade::match {

namespace {

// The score as a "higher is better" value, the order nms_iou visits in.
float goodness(float score, MatchMethod method) { return match_lower_is_better(method) ? -score : score; }

Detection best_position(const ScoreMap& map, Size templ, MatchMethod method) {
    std::size_t best = 0;
    for (std::size_t i = 1; i < map.scores.size(); ++i)
        if (goodness(map.scores[i], method) > goodness(map.scores[best], method)) best = i;
    const int x = static_cast<int>(best % map.width), y = static_cast<int>(best / map.width);
    return {{x * map.step, y * map.step, templ.width, templ.height}, map.scores[best]};
}

bool local_optimum(const ScoreMap& map, int x, int y, float value, MatchMethod method) {
    for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
            const int nx = x + dx, ny = y + dy;
            if ((dx || dy) && nx >= 0 && ny >= 0 && nx < map.width && ny < map.height &&
                goodness(map.at(nx, ny), method) > value)
                return false;
        }
    return true;
}

// NMS over candidates scored by goodness, the best `top`, given back their scores.
std::vector<Detection> best_kept(std::vector<Detection> candidates, MatchMethod method, const PeakRules& rules) {
    std::vector<Detection> kept = nms_iou(std::move(candidates), rules.nms_iou);
    if (rules.top > 0 && static_cast<int>(kept.size()) > rules.top) kept.resize(static_cast<std::size_t>(rules.top));
    for (Detection& d : kept) d.score = goodness(d.score, method);
    return kept;
}

}  // namespace

std::vector<Detection> find_peaks(const ScoreMap& map, Size templ, MatchMethod method, const PeakRules& rules) {
    if (map.scores.empty()) return {};
    if (!rules.threshold && rules.top == 1) return {best_position(map, templ, method)};
    std::vector<Detection> candidates;
    for (int y = 0; y < map.height; ++y)
        for (int x = 0; x < map.width; ++x) {
            const float score = map.at(x, y);
            if (rules.threshold && goodness(score, method) < goodness(*rules.threshold, method)) continue;
            const float value = goodness(score, method);
            if (local_optimum(map, x, y, value, method))
                candidates.push_back({{x * map.step, y * map.step, templ.width, templ.height}, value});
        }
    return best_kept(std::move(candidates), method, rules);
}

std::vector<Detection> merge_peaks(std::vector<Detection> peaks, MatchMethod method, const PeakRules& rules) {
    for (Detection& d : peaks) d.score = goodness(d.score, method);
    if (!rules.threshold && rules.top == 1 && !peaks.empty()) {
        const auto best = std::max_element(peaks.begin(), peaks.end(),
                                           [](const Detection& a, const Detection& b) { return a.score < b.score; });
        peaks = {*best};
    }
    return best_kept(std::move(peaks), method, rules);
}

}  // namespace cascade::match
