// The planes a Haar cascade reads on one pyramid level, as OpenCV's HaarEvaluator computes them with
// cv::integral(img, sum, sqsum, tilted, CV_32S, CV_32S): the integral image, the integral of squared pixels
// (32-bit, wrapping on large frames as OpenCV's int does; a window's difference of four corners is still exact
// modulo 2^32, and OpenCV reads it as unsigned) and the tilted (45 degree) integral image:
//   tilted(X, Y) = sum of pixel (x, y) over y < Y and |x - X + 1| <= Y - 1 - y,
// all (width + 1) x (height + 1), stored as uint32.
#pragma once

#include <cstdint>
#include <vector>

#include "common/image.hpp"
#include "common/integral.hpp"
#include "common/integral_view.hpp"

namespace cascade {

// The Sampler of a Haar window (haar_eval.hpp): three views of the same geometry.
struct HaarIntegralView {
    IntegralView sums, squares, tilted;
};

struct HaarIntegrals {
    Size size;  // of the source image
    std::vector<std::uint32_t> sums, squares, tilted;

    HaarIntegralView view() const {
        const int stride = size.width + 1;
        return {{sums.data(), stride}, {squares.data(), stride}, {tilted.data(), stride}};
    }
};

void compute_haar_integrals(const GrayView& image, HaarIntegrals& out);

}  // namespace cascade
