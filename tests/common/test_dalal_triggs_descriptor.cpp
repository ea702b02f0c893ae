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

// OpenCV's 64x128 people-detector geometry, sigma 4 (its default for 16x16 blocks), gamma correction or not.
cv::HOGDescriptor opencv_descriptor(bool gamma = false) {
    return cv::HOGDescriptor(cv::Size(64, 128), cv::Size(16, 16), cv::Size(8, 8), cv::Size(8, 8), 9, 1, 4.0,
                             cv::HOGDescriptor::L2Hys, 0.2, gamma);
}

// Element (block at (bx, by), cell (cx, cy), bin) of OpenCV's window descriptor: blocks and the cells in a block
// are ordered column by column.
float opencv_element(const std::vector<float>& d, int bx, int by, int cx, int cy, int bin) {
    const int block = (bx / 8) * 15 + by / 8, cell = cx * 2 + cy;
    return d[static_cast<std::size_t>(block * kHogBlockDims + cell * kHogBins + bin)];
}

struct Agreement {
    int windows = 0, blocks = 0;
    double largest = 0.0, total = 0.0;
    double mean() const { return total / (static_cast<double>(blocks) * kHogBlockDims); }
};

// Our blocks (gamma-corrected or not) of 3 windows of every real image against `reference`'s descriptor of the
// image `opencv_input` makes of it.
template <class OpenCvInput>
Agreement agreement_with_opencv(const cv::HOGDescriptor& reference, bool gamma, OpenCvInput opencv_input) {
    Agreement a;
    for (const test::ImageSource& source : test::real_images()) {
        const cv::Mat gray = test::load_gray(source);
        if (gray.cols < 80 || gray.rows < 144) continue;
        HogPlanes planes;
        compute_hog_planes(view_of_mat(gray), planes);
        const cv::Mat input = opencv_input(gray);
        // Windows a pixel inside the image: there both compute the same centred differences.
        for (const cv::Point at : {cv::Point(1, 1), cv::Point(gray.cols - 65, gray.rows - 129),
                                   cv::Point((gray.cols - 64) / 2, (gray.rows - 128) / 2)}) {
            std::vector<float> expected;
            reference.compute(input, expected, cv::Size(), cv::Size(), {at});
            REQUIRE(expected.size() == 3780u);
            ++a.windows;
            for (int by = 0; by + 16 <= 128; by += 8)
                for (int bx = 0; bx + 16 <= 64; bx += 8) {
                    float v[kHogBlockDims];
                    dalal_triggs_block(planes.sampler(), at.x, at.y, Rect{bx, by, 16, 16}, gamma, v);
                    ++a.blocks;
                    for (int cell = 0; cell < 4; ++cell)
                        for (int bin = 0; bin < kHogBins; ++bin) {
                            const double d = std::abs(v[cell * kHogBins + bin] -
                                                      opencv_element(expected, bx, by, cell % 2, cell / 2, bin));
                            a.largest = std::max(a.largest, d);
                            a.total += d;
                        }
                }
        }
    }
    return a;
}

}  // namespace

TEST_CASE("Dalal-Triggs blocks agree with OpenCV's HOGDescriptor on real windows") {
    const Agreement a = agreement_with_opencv(opencv_descriptor(), false, [](const cv::Mat& gray) { return gray; });
    if (a.windows == 0) {
        MESSAGE("SKIP: no real image of at least 80x144 found");
        return;
    }
    // What differs: the position inside an orientation bin (a ratio of sines here, atan2 there: within 0.6% of
    // a bin) and float rounding; elements of a normalised block are up to about 0.4.
    MESSAGE(a.windows << " windows, " << a.blocks << " blocks: largest difference " << a.largest << ", mean " << a.mean());
    CHECK(a.mean() < 1e-3);
    CHECK(a.largest < 0.01);
}

TEST_CASE("hog_gamma is round(8 sqrt(255 v)) for every grey level") {
    for (int v = 0; v < 256; ++v) {
        INFO("v " << v);
        CHECK(hog_gamma(v) == static_cast<int>(std::lround(8.0 * std::sqrt(255.0 * v))));
    }
}

TEST_CASE("gamma-corrected Dalal-Triggs blocks: the histograms of the hog_gamma image, near OpenCV's gammaCorrection") {
    // OpenCV's own gammaCorrection (float sqrt(I); its epsilon against gradients sqrt(255) times smaller, as
    // ours is scaled) differs by the rounding of the levels to integers: close, not equal.
    const Agreement near = agreement_with_opencv(opencv_descriptor(true), true, [](const cv::Mat& gray) { return gray; });
    if (near.windows == 0) {
        MESSAGE("SKIP: no real image of at least 80x144 found");
        return;
    }
    MESSAGE("against OpenCV's gammaCorrection: largest difference " << near.largest << ", mean " << near.mean());
    CHECK(near.mean() < 3e-3);
    CHECK(near.largest < 0.05);
    // Exactly: the gamma variant's cell histograms are the plain ones of gradients of round(8 sqrt(255 I)).
    int compared = 0;
    for (const test::ImageSource& source : test::real_images()) {
        const cv::Mat gray = test::load_gray(source);
        if (gray.cols < 64 || gray.rows < 128) continue;
        HogPlanes planes;
        compute_hog_planes(view_of_mat(gray), planes);
        GradientPlane expected;
        expected.size = {gray.cols, gray.rows};
        const auto level = [&gray](int x, int y) {
            x = std::clamp(x, 0, gray.cols - 1);
            y = std::clamp(y, 0, gray.rows - 1);
            return static_cast<int>(std::lround(8.0 * std::sqrt(255.0 * gray.at<std::uint8_t>(y, x))));
        };
        for (int y = 0; y < gray.rows; ++y)
            for (int x = 0; x < gray.cols; ++x)
                expected.pairs.push_back({static_cast<std::int16_t>(level(x + 1, y) - level(x - 1, y)),
                                          static_cast<std::int16_t>(level(x, y + 1) - level(x, y - 1))});
        const HogSampler plain_of_expected{{}, expected.view(), expected.view()};
        for (int by = 0; by + 16 <= gray.rows; by += 24)
            for (int bx = 0; bx + 16 <= gray.cols; bx += 24) {
                float gamma[kHogBlockDims], plain[kHogBlockDims];
                dt_block_histogram(planes.sampler(), 0, 0, Rect{bx, by, 16, 16}, true, gamma);
                dt_block_histogram(plain_of_expected, 0, 0, Rect{bx, by, 16, 16}, false, plain);
                ++compared;
                REQUIRE(std::equal(gamma, gamma + kHogBlockDims, plain));
            }
    }
    MESSAGE(compared << " blocks equal");
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
