// The FOAGDD corner detector's CPU reference (docs/keypoints.md), no OpenCV:
//   1. the 8 responses of the first scale (sigma 1.5) at every pixel of the image and 3 pixels around it;
//   2. the measure det(M) / (tr(M) + eps) of every pixel (common/foagdd_pixel.hpp);
//   3. candidates: pixels in rows and columns [6, n - 5) whose measure is above the threshold and equal to the
//      largest of its 5x5 neighbourhood (the authors' cv2.dilate with a 5x5 rectangle: plateaus keep every pixel);
//   4. a candidate is a corner when its measure from the responses of sigma 3 and of sigma 4.5 at the same 37
//      pixels is above the threshold too (the third-scale test the thesis restored), computed at candidates only.
// Points come in row-major order with their first-scale measure. The threshold assumes 0..255 grey input.
#pragma once

#include <vector>

#include "common/foagdd_filters.hpp"
#include "common/image.hpp"

namespace cascade {

struct Keypoint {
    int x = 0;
    int y = 0;
    double measure = 0.0;  // at sigma 1.5
};

// The smallest image the detector takes (the reflect padding needs 7 pixels; the candidates' band needs 12).
constexpr int kFoagddMinSide = 16;

// The first scale's measure at every pixel, row-major (width * height).
std::vector<double> foagdd_measure_map(const GrayView& image, int threads = 0);

// Step 3 over a measure map: the candidates, row-major (measure = the map's value).
std::vector<Keypoint> foagdd_candidates(const std::vector<double>& map, int width, int height, double threshold);

// The measure at (x, y) from the responses of scale 0, 1 or 2, computed at the 37 disc pixels directly.
double foagdd_point_measure(const GrayView& image, const std::vector<float>& taps, int scale, int x, int y);

// Steps 1-4. requires: image.width, image.height >= kFoagddMinSide.
std::vector<Keypoint> foagdd_keypoints(const GrayView& image, double threshold = kFoagddThreshold, int threads = 0);

}  // namespace cascade
