// Miss rate against false positives per unit (per window: a DET curve; per image: MR against FPPI), obtained
// by sweeping a threshold over detection scores, and the summaries read off such a curve. Pure arithmetic,
// no OpenCV, shared by both protocols of cascade-eval.
//
// At threshold t a positive counts as found when its score is >= t, a false alarm counts when its score is
// >= t. A positive that is never found (rejected by the cascade, or matched by no detection) is simply not
// among the hit scores: it is missed at every threshold.
#pragma once

#include <vector>

namespace cascade::eval {

struct CurvePoint {
    double threshold = 0.0;
    double false_positives = 0.0;  // per unit (window or image)
    double miss_rate = 1.0;
};

// One point per distinct hit score, in decreasing threshold (so increasing false positives and decreasing
// miss rate): the threshold equal to that score, where the miss rate drops. Points between two hit scores
// would only add false alarms at the same miss rate, so they are left out; miss_rate_at gives the same
// answers with or without them.
// Requires positives >= hit_scores.size(), positives > 0 and units > 0.
std::vector<CurvePoint> miss_rate_curve(std::vector<double> hit_scores, int positives,
                                        std::vector<double> false_alarm_scores, double units);

// The same with false alarms given as counts of equal scores (millions of scanned windows need not be
// listed one by one: each may be rounded down to the nearest hit score, which changes no point).
struct ScoreCount {
    double score = 0.0;
    double count = 0.0;
};
std::vector<CurvePoint> miss_rate_curve(std::vector<double> hit_scores, int positives,
                                        std::vector<ScoreCount> false_alarms, double units);

// The lowest miss rate among the points whose false positives are <= `false_positives` (the operating point
// a user picks for that budget, as in Dollar et al.'s evaluation code); 1 when no point is within it.
double miss_rate_at(const std::vector<CurvePoint>& curve, double false_positives);

// The nine reference points 10^-2, 10^-1.75, ..., 10^0 of the log-average miss rate.
std::vector<double> log_average_references();

// Dollar et al. (PAMI 2012): the geometric mean of miss_rate_at over log_average_references() (each
// clamped below at 1e-10, as their code does).
double log_average_miss_rate(const std::vector<CurvePoint>& curve);

}  // namespace cascade::eval
