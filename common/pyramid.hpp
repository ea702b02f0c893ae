// Image-pyramid geometry: which levels a detector scans and how level coordinates map back to the image.
//
// The rule is OpenCV's CascadeClassifier (4.x) rule, so that detections can be compared exactly: scales
// 1, f, f^2, ... (accumulated in double, stored as float) while the window fits the image; of those, the
// levels whose window (float scale, rounded half to even) is within [min_object, max_object]; if none is,
// the one scale whose window is nearest min_object (so min == max between two scales still scans one).
// A level image is the source resized to round(W / scale) x round(H / scale) (float division).
//
// first_scale < 1 (not in OpenCV) starts the scales at first_scale, f * first_scale, ... so that the first
// levels are upsampled images and objects smaller than the window are found (a 64x128 pedestrian window
// at first_scale 0.5 finds people 64 px tall). The default 1 gives OpenCV's levels unchanged.
#pragma once

#include <cmath>
#include <vector>

#include "common/geometry.hpp"

namespace cascade {

struct PyramidParams {
    double scale_factor = 1.1;  // > 1
    Size min_object;            // 0 x 0: no minimum
    Size max_object;            // 0 x 0: the image size
    double first_scale = 1.0;   // in (0, 1]: the smallest scale
};

struct PyramidLevel {
    float scale = 1.f;  // image pixels per level pixel
    Size size;          // level image size
    Size window;        // the detection window's size in image pixels
};

// Requires scale_factor > 1, 0 < first_scale <= 1 and a non-empty window. Ensures levels in increasing
// scale; empty when the window does not fit the image.
std::vector<PyramidLevel> pyramid_levels(Size image, Size window, const PyramidParams& params);

// Image rectangle of the window whose top-left corner is (x, y) on `level` (OpenCV's rounding: float product,
// round half to even).
inline Rect to_image(const PyramidLevel& level, int x, int y) {
    return {static_cast<int>(std::lrint(static_cast<float>(x) * level.scale)),
            static_cast<int>(std::lrint(static_cast<float>(y) * level.scale)), level.window.width,
            level.window.height};
}

}  // namespace cascade
