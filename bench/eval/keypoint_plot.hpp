// cascade-eval keypoints' results and their PNG: one panel per transform family (repeatability 0..1 against the
// family's strength), one colour per detector, drawn with OpenCV imgproc and written atomically.
#pragma once

#include <string>
#include <vector>

#include "bench/eval/keypoint_transforms.hpp"

namespace cascade::eval {

struct Score {
    TransformStep step;
    double repeatability = 0, error = 0, points = 0, ms = 0;  // means over the images
    int pairs = 0;
};

struct Curve {
    std::string detector;
    std::vector<Score> scores;  // transform_steps() order
};

// Throws InputError naming `path` when it cannot be written.
void write_keypoint_plot(const std::vector<Curve>& curves, const std::string& path);

}  // namespace cascade::eval
