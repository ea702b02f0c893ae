// Comparing a GPU detector's raw windows with the CPU reference's, for the GPU tests of both feature types.
//   - exact mode: equal_windows (same rectangles, same float scores, same order) and `difference`, a one-line
//     account of what differs for the failure message;
//   - texture mode: matched_by_iou, how many rectangles of one list overlap one of the other's at IoU >= 0.5.
#pragma once

#include <string>
#include <vector>

#include "common/detection.hpp"
#include "common/geometry.hpp"

namespace cascade::test {

// The GPU detectors' order: by rectangle, then score.
bool by_rect_then_score(const Detection& a, const Detection& b);
// requires: both sorted by by_rect_then_score.
bool equal_windows(const std::vector<Detection>& a, const std::vector<Detection>& b);
// "N GPU vs M CPU windows; only GPU a, only CPU b; e.g. ..." (both sorted by by_rect_then_score).
std::string difference(const std::vector<Detection>& gpu, const std::vector<Detection>& cpu);

double iou(const Rect& a, const Rect& b);
// The rectangles of `from` that overlap some rectangle of `to` at IoU >= 0.5.
int matched_by_iou(const std::vector<Rect>& from, const std::vector<Rect>& to);

}  // namespace cascade::test
