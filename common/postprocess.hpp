// From raw windows to detections: grouping (OpenCV's groupRectangles, IoU NMS, mean-shift modes in
// (x, y, log scale) as Dalal and Bilgic group HoG detections, or none), then clipping to
// the image as cv::CascadeClassifier::detectMultiScale does (a window rounded past the border is cut at it,
// and one left with no area is dropped). Shared by every detector and backend.
#pragma once

#include <vector>

#include "common/detection.hpp"
#include "common/geometry.hpp"
#include "common/mean_shift.hpp"

namespace cascade {

enum class Grouping { opencv, nms, mean_shift, none };

struct GroupingParams {
    Grouping method = Grouping::opencv;
    int min_neighbors = 3;   // opencv: groups with at most this many members are dropped; 0 = raw windows
    float nms_iou = 0.3f;    // nms: suppress overlaps above this IoU
    MeanShiftParams mean_shift;  // mean_shift: bandwidths (the thesis's sigma_x 8, sigma_y 16, log 1.3)
};

// Intersection of each rectangle with the image; those with no area are removed. Order is kept.
std::vector<Detection> clip_to_image(std::vector<Detection> detections, Size image);

// `window` is the model's window size (mean_shift reports its modes as windows of that size).
std::vector<Detection> group_and_clip(const std::vector<Detection>& raw, const GroupingParams& params, Size image,
                                      Size window);

}  // namespace cascade
