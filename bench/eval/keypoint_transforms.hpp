// The known transforms of cascade-eval keypoints (bench/eval/keypoint_eval.hpp): each a 3x3 homography from the
// original image to the transformed one (identity for the photometric ones) and the transformed image.
#pragma once

#include <opencv2/core.hpp>
#include <string>
#include <vector>

namespace cascade::eval {

struct TransformStep {
    std::string family;  // "rotation", "scale", "homography", "noise", "jpeg", "illumination"
    std::string label;   // the strength, e.g. "30 deg", "q 50"
    double strength;     // the x axis of the family's panel
};

// The steps of every family, in plot order.
std::vector<TransformStep> transform_steps();

// The step applied to a grey image: the transformed image and the homography H (original -> transformed).
cv::Mat apply_transform(const TransformStep& step, const cv::Mat& grey, cv::Matx33d& h);

}  // namespace cascade::eval
