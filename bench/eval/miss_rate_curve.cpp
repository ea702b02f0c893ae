#include "bench/eval/miss_rate_curve.hpp"

#include <algorithm>
#include <cmath>
#include <functional>

namespace cascade::eval {

std::vector<CurvePoint> miss_rate_curve(std::vector<double> hit_scores, int positives,
                                        std::vector<double> false_alarm_scores, double units) {
    std::vector<ScoreCount> alarms;
    alarms.reserve(false_alarm_scores.size());
    for (const double score : false_alarm_scores) alarms.push_back({score, 1.0});
    return miss_rate_curve(std::move(hit_scores), positives, std::move(alarms), units);
}

std::vector<CurvePoint> miss_rate_curve(std::vector<double> hit_scores, int positives,
                                        std::vector<ScoreCount> false_alarms, double units) {
    std::sort(hit_scores.begin(), hit_scores.end(), std::greater<>());
    std::sort(false_alarms.begin(), false_alarms.end(),
              [](const ScoreCount& a, const ScoreCount& b) { return a.score > b.score; });
    std::vector<CurvePoint> curve;
    std::size_t next_alarm = 0;
    double alarms = 0.0;
    for (std::size_t i = 0; i < hit_scores.size(); ++i) {
        const double t = hit_scores[i];
        if (i + 1 < hit_scores.size() && hit_scores[i + 1] == t) continue;  // ties: one point after the last
        for (; next_alarm < false_alarms.size() && false_alarms[next_alarm].score >= t; ++next_alarm)
            alarms += false_alarms[next_alarm].count;
        curve.push_back({t, alarms / units, 1.0 - static_cast<double>(i + 1) / positives});
    }
    return curve;
}

double miss_rate_at(const std::vector<CurvePoint>& curve, double false_positives) {
    double best = 1.0;
    for (const CurvePoint& p : curve)
        if (p.false_positives <= false_positives) best = std::min(best, p.miss_rate);
    return best;
}

std::vector<double> log_average_references() {
    std::vector<double> refs;
    for (int i = 0; i <= 8; ++i) refs.push_back(std::pow(10.0, -2.0 + 0.25 * i));
    return refs;
}

double log_average_miss_rate(const std::vector<CurvePoint>& curve) {
    double log_sum = 0.0;
    const std::vector<double> refs = log_average_references();
    for (const double r : refs) log_sum += std::log(std::max(1e-10, miss_rate_at(curve, r)));
    return std::exp(log_sum / static_cast<double>(refs.size()));
}

}  // namespace cascade::eval
