// Grouping of raw detection windows without OpenCV: the rectangle grouping that OpenCV 4.6's
// CascadeClassifier::detectMultiScale applies (cv::groupRectangles with eps 0.2), a scored variant of it, and
// greedy IoU non-maximum suppression.
//
// Order of the grouped output (what depends on input order and what does not):
//   - OpenCV's partition puts two rectangles in one group exactly when they are connected by a chain of
//     pairwise-similar rectangles (the similarity test is symmetric), so the set of groups, their member
//     counts, their averages and which groups survive the filters do NOT depend on input order.
//   - The partition numbers the groups by first appearance: group k is the one whose earliest member (lowest
//     input index) comes k-th. The result lists the surviving groups in that order, so the ORDER of the output
//     DOES depend on input order, but only through where each group's first member sits. group_rectangles
//     reproduces OpenCV's order exactly, not just its set.
#pragma once

#include <vector>

#include "common/detection.hpp"
#include "common/geometry.hpp"

namespace cascade {

// group_rectangles: cv::groupRectangles(rects, min_neighbors, eps) of OpenCV 4.6, as detectMultiScale uses it.
//   requires: every x, y, width, height, x + width, y + height, the differences between them and the per-group
//             sums of x, y, width, height fit in int (OpenCV's int arithmetic would overflow otherwise);
//             eps >= 0 (detectMultiScale uses 0.2).
//   ensures:  - min_neighbors <= 0: returns rects unchanged (same elements, same order).
//             - otherwise: rects are partitioned into the connected components of the relation "similar"
//               (delta = eps * (min of widths + min of heights) * 0.5; all four of |dx|, |dy|, |d right|,
//               |d bottom| <= delta). Each group of n members becomes its average rectangle (int sum times
//               1.f/n in float, rounded half to even). Groups with n <= min_neighbors are dropped, and so is
//               a group lying inside another group with n2 > min_neighbors (the other's box widened by
//               round(eps * its width/height) on each side) when n2 > max(3, n) or n < 3.
//             - the result is identical to OpenCV's, element for element and in OpenCV's order (see above).
std::vector<Rect> group_rectangles(const std::vector<Rect>& rects, int min_neighbors, double eps = 0.2);

// group_detections: group_rectangles on the detections' rectangles, keeping scores.
//   requires: as group_rectangles.
//   ensures:  - min_neighbors <= 0: returns detections unchanged.
//             - otherwise: the rectangles of the result equal group_rectangles(rects of detections,
//               min_neighbors, eps), in the same order, and each one's score is the largest score among the
//               members of its group.
std::vector<Detection> group_detections(const std::vector<Detection>& detections, int min_neighbors,
                                        double eps = 0.2);

// iou: intersection over union of two rectangles [x, x + width) x [y, y + height).
//   ensures: exact integer areas (64-bit) divided in double; negative extents count as empty; 0 when the
//            union is empty.
double iou(const Rect& a, const Rect& b);

// nms_iou: greedy non-maximum suppression by intersection over union.
//   requires: no score is NaN; width and height >= 0 (negative extents count as empty boxes).
//   ensures:  - candidates are visited by descending score; equal scores are visited in ascending Rect order
//               (operator< of geometry.hpp: x, y, width, height), so the result does not depend on input order.
//             - a candidate is kept unless its IoU with an already kept detection is > iou_threshold (an IoU
//               exactly equal to the threshold is kept), IoU as iou() above.
//             - returns the kept detections in visiting order (descending score).
std::vector<Detection> nms_iou(std::vector<Detection> detections, float iou_threshold);

}  // namespace cascade
