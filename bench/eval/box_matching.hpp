// Matching detections to ground-truth boxes in one image (PASCAL VOC criterion, as in Dollar et al.'s
// pedestrian benchmark): detections are taken in decreasing score; each one matches the still unmatched
// ground-truth box it overlaps most, if that overlap (intersection over union) is at least `min_iou`;
// otherwise it is a false alarm. Overlap is common/grouping.hpp's iou(). A ground-truth box is matched at
// most once, so a second detection of the same person is a false alarm. Pure arithmetic, no OpenCV.
#pragma once

#include <vector>

#include "common/detection.hpp"
#include "common/geometry.hpp"

namespace cascade::eval {

struct ImageMatches {
    std::vector<double> hit_scores;          // score of the detection that matched each matched box
    std::vector<double> false_alarm_scores;  // scores of the unmatched detections
    int ground_truth = 0;                    // boxes in the image, matched or not
};

// Ties in score keep the detections' order; of two boxes overlapped equally, the first is taken.
// Requires 0 < min_iou <= 1.
ImageMatches match_detections(const std::vector<Detection>& detections, const std::vector<Rect>& ground_truth,
                              double min_iou = 0.5);

}  // namespace cascade::eval
