// The matches a score map reports: its best position, or every local optimum passing a threshold, thinned by
// non-maximum suppression (common/grouping.hpp's nms_iou) and cut to the best K.
#pragma once

#include <optional>
#include <vector>

#include "common/detection.hpp"
#include "match/score_map.hpp"

namespace cascade::match {

struct PeakRules {
    int top = 1;                     // at most this many matches; 0: all
    std::optional<float> threshold;  // kept: score <= threshold (TM_SQDIFF modes), >= (the others)
    float nms_iou = 0.3f;            // a match overlapping a better one by more than this is dropped
};

// find_peaks: matches of the template (window `templ`) in `map`, scored as `method` (lower or higher is better).
//   ensures: - without a threshold and with top == 1: the best position only (the first in row-major order among
//              equal scores, as cv::minMaxLoc);
//            - otherwise: every position no 8-neighbour of which scores strictly better and which passes the
//              threshold, best first, after NMS, at most `top`.
//            Each Detection is the template's rectangle at the position, with the position's score.
std::vector<Detection> find_peaks(const ScoreMap& map, Size templ, MatchMethod method, const PeakRules& rules);

// merge_peaks: the peaks of several template sizes as one frame's matches, by the same rules: the best one
//   without a threshold and with top == 1; otherwise NMS over all of them, best first, at most `top`.
std::vector<Detection> merge_peaks(std::vector<Detection> peaks, MatchMethod method, const PeakRules& rules);

}  // namespace cascade::match
