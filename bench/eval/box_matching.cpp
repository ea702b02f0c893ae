#include "bench/eval/box_matching.hpp"

#include <algorithm>
#include <numeric>

#include "common/grouping.hpp"

namespace cascade::eval {

ImageMatches match_detections(const std::vector<Detection>& detections, const std::vector<Rect>& ground_truth,
                              double min_iou) {
    std::vector<std::size_t> order(detections.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return detections[a].score > detections[b].score; });
    ImageMatches out;
    out.ground_truth = static_cast<int>(ground_truth.size());
    std::vector<bool> matched(ground_truth.size(), false);
    for (const std::size_t d : order) {
        double best_iou = 0.0;
        int best = -1;
        for (std::size_t g = 0; g < ground_truth.size(); ++g) {
            if (matched[g]) continue;
            const double overlap = iou(detections[d].rect, ground_truth[g]);
            if (overlap >= min_iou && overlap > best_iou) {
                best_iou = overlap;
                best = static_cast<int>(g);
            }
        }
        if (best >= 0) {
            matched[static_cast<std::size_t>(best)] = true;
            out.hit_scores.push_back(detections[d].score);
        } else {
            out.false_alarm_scores.push_back(detections[d].score);
        }
    }
    return out;
}

}  // namespace cascade::eval
