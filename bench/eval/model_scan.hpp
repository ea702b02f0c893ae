// What both protocols need from a model of either kind (LBP or HoG).
//
// Per window, a window's depth score: depth * span + sum, where depth is the stage that rejected the window
// (the number of stages when it passes them all, or a stage accepts it) and sum is the stage sum there;
// span exceeds twice any sum the cascade can produce, so the score orders windows by depth first, then by
// sum. A threshold on it at (depth k, sum t) accepts every window that passes stages 0..k plus those that
// reach stage k with a sum >= t: the cascade cut after stage k with that stage's threshold lowered to t.
// Sweeping it walks through every cut of the cascade (the theses' one point per depth) and, between two
// cuts, the cut stage's threshold; at the top it is a threshold on the final score.
#pragma once

#include <vector>

#include "common/geometry.hpp"
#include "common/image.hpp"
#include "common/model.hpp"
#include "common/scan.hpp"

namespace cascade::eval {

Size window_of(const Model& model);

// 2 * (the largest |sum| any stage can reach) + 1: the sum of the weak learners' largest |response| (within
// the largest stage for per-stage sums, over the whole cascade for a running sum), doubled, plus 1.
double depth_span(const Model& model);

// The depth score of the window at (x, y) of `image`; the window must lie inside the image.
double window_depth_score(const Model& model, const GrayView& image, int x, int y, double span);

struct ScoredWindow {
    Rect rect;     // in image coordinates
    double score;  // depth score (a float would not hold it exactly)
    int work;      // weak learners the cascade evaluated on the window
};

// Every window of a fixed-stride scan (scan.rule.stride > 0) of every pyramid level that gets at least to
// stage `min_depth` (0: all; the work of the others is not reported), through the same pyramid, resize, features and window evaluation as the CPU
// detectors. Order unspecified.
std::vector<ScoredWindow> scan_depth_scores(const Model& model, const GrayView& image, const ScanParams& scan,
                                            double span, int min_depth);

int stage_count(const Model& model);

// What a model's weak learners are, for the work per window: "blocks" (HoG), "weak learners" (LBP).
const char* work_unit(const Model& model);

}  // namespace cascade::eval
