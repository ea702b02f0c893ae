// Dalal and Triggs' block descriptor (common/dalal_triggs_descriptor.hpp) against OpenCV's HOGDescriptor, an
// independent implementation of the same descriptor, on real windows; the trainer's cut-out windows against
// the full planes.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <opencv2/objdetect.hpp>

#include "common/dalal_triggs_descriptor.hpp"
#include "common/hog_features.hpp"
#include "tests/support/test_data.hpp"

using namespace cascade;

namespace {

GrayView view_of_mat(const cv::Mat& m) { return {m.data, m.cols, m.rows, static_cast<int>(m.step)}; }

// OpenCV's 64x128 people-detector geometry without gamma correction, sigma 4 (its default for 16x16 blocks).
cv::HOGDescriptor opencv_descriptor() {
    return cv::HOGDescriptor(cv::Size(64, 128), cv::Size(16, 16), cv::Size(8, 8), cv::Size(8, 8), 9, 1, 4.0,
                             cv::HOGDescriptor::L2Hys, 0.2, false);
}

// Element (block at (bx, by), cell (cx, cy), bin) of OpenCV's window descriptor: blocks and the cells in a block
// are ordered column by column.
float opencv_element(const std::vector<float>& d, int bx, int by, int cx, int cy, int bin) {
    const int block = (bx / 8) * 15 + by / 8, cell = cx * 2 + cy;
    return d[static_cast<std::size_t>(block * kHogBlockDims + cell * kHogBins + bin)];
}

}  // namespace

TEST_CASE("Dalal-Triggs blocks agree with OpenCV's HOGDescriptor on real windows") {
    const cv::HOGDescriptor reference = opencv_descriptor();
    int windows = 0, blocks = 0;
    double largest_difference = 0.0, total_difference = 0.0;
    for (const test::ImageSource& source : test::real_images()) {
        const cv::Mat gray = test::load_gray(source);
        if (gray.cols < 80 || gray.rows < 144) continue;
        GradientPlane plane;
        compute_gradient_plane(view_of_mat(gray), plane);
        const GradientView gradients = plane.view();
        // Windows a pixel inside the image: there both compute the same centred differences.
        for (const cv::Point at : {cv::Point(1, 1), cv::Point(gray.cols - 65, gray.rows - 129),
                                   cv::Point((gray.cols - 64) / 2, (gray.rows - 128) / 2)}) {
            std::vector<float> expected;
            reference.compute(gray, expected, cv::Size(), cv::Size(), {at});
            REQUIRE(expected.size() == 3780u);
            ++windows;
            for (int by = 0; by + 16 <= 128; by += 8)
                for (int bx = 0; bx + 16 <= 64; bx += 8) {
                    float v[kHogBlockDims];
                    dalal_triggs_block(gradients, at.x, at.y, Rect{bx, by, 16, 16}, v);
                    ++blocks;
                    for (int cell = 0; cell < 4; ++cell)
                        for (int bin = 0; bin < kHogBins; ++bin) {
                            const double d = std::abs(v[cell * kHogBins + bin] -
                                                      opencv_element(expected, bx, by, cell % 2, cell / 2, bin));
                            largest_difference = std::max(largest_difference, d);
                            total_difference += d;
                        }
                }
        }
    }
    if (windows == 0) {
        MESSAGE("SKIP: no real image of at least 80x144 found");
        return;
    }
    // What differs: the position inside an orientation bin (a ratio of sines here, atan2 there: within 0.6% of
    // a bin) and float rounding; elements of a normalised block are up to about 0.4.
    const double mean = total_difference / (static_cast<double>(blocks) * kHogBlockDims);
    MESSAGE(windows << " windows, " << blocks << " blocks: largest difference " << largest_difference << ", mean " << mean);
    CHECK(mean < 1e-3);
    CHECK(largest_difference < 0.01);
}

TEST_CASE("Dalal-Triggs pixel votes: bins, shares and magnitudes against atan2 and sqrt") {
    for (int gy = -255; gy <= 255; gy += 3)
        for (int gx = -255; gx <= 255; gx += 3) {
            if (gx == 0 && gy == 0) continue;
            const DtVote v = dt_pixel_vote(gx, gy);
            double angle = std::atan2(gy, gx) * 180.0 / 3.14159265358979323846;
            if (angle < 0) angle += 180.0;
            if (angle >= 180.0) angle -= 180.0;
            // Position in bin centres (10, 30, ..., 170 degrees): lo + hi_share, modulo 9.
            const double position = std::fmod(angle / 20.0 - 0.5 + 9.0, 9.0);
            double got = v.lo + v.hi_share;
            if (got - position > 4.5) got -= 9.0;
            if (position - got > 4.5) got += 9.0;
            INFO("gx " << gx << " gy " << gy);
            CHECK(v.hi == (v.lo + 1) % kHogBins);
            CHECK(v.hi_share >= 0.f);
            CHECK(v.hi_share < 1.f);
            CHECK(std::abs(got - position) < 0.012);
            CHECK(v.magnitude == static_cast<float>(std::sqrt(static_cast<double>(gx * gx + gy * gy))));
        }
}
