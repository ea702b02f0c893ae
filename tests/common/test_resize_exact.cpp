// resize_linear_exact and resize_linear_exact_pixel against cv::resize(..., INTER_LINEAR_EXACT), pixel for
// pixel: every pyramid level OpenCV's CascadeClassifier would build from real images, odd sizes (1 pixel,
// upscaling, equal size, exact halving, which OpenCV routes to INTER_AREA), strided views, a sweep of small
// random images over many size pairs, and length pairs chosen because rounding ties and last bits decide them.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <opencv2/core.hpp>
#include <opencv2/core/ocl.hpp>
#include <opencv2/imgproc.hpp>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "common/resize_exact.hpp"
#include "tests/support/test_data.hpp"

namespace {

cascade::GrayView view_of(const cv::Mat& m) { return {m.data, m.cols, m.rows, static_cast<int>(m.step)}; }

struct Mismatch {
    long count = 0;
    int x = -1, y = -1, ours = 0, theirs = 0;
};

Mismatch compare(const cv::Mat& expected, const std::uint8_t* ours, int stride) {
    Mismatch m;
    for (int y = 0; y < expected.rows; ++y)
        for (int x = 0; x < expected.cols; ++x) {
            const int theirs = expected.at<std::uint8_t>(y, x);
            const int mine = ours[static_cast<std::ptrdiff_t>(y) * stride + x];
            if (theirs == mine) continue;
            if (m.count++ == 0) m.x = x, m.y = y, m.ours = mine, m.theirs = theirs;
        }
    return m;
}

std::string describe(const std::string& label, cv::Size from, cv::Size to, const char* path, const Mismatch& m) {
    std::ostringstream s;
    s << label << " " << from.width << "x" << from.height << " -> " << to.width << "x" << to.height << " ("
      << path << "): " << m.count << " pixels differ";
    if (m.count > 0) s << "; first at (" << m.x << "," << m.y << "): ours " << m.ours << ", OpenCV " << m.theirs;
    return s.str();
}

// Resizes `src` to `dsize` with OpenCV and with both of ours (separable host path, per-pixel path) and checks
// all three agree. Returns true when they do.
bool check_resize(const std::string& label, const cv::Mat& src, cv::Size dsize) {
    cv::Mat expected;
    cv::resize(src, expected, dsize, 0, 0, cv::INTER_LINEAR_EXACT);
    REQUIRE(expected.size() == dsize);

    cascade::GrayImage ours(dsize.width, dsize.height);
    cascade::resize_linear_exact(view_of(src), ours);
    const Mismatch host = compare(expected, ours.pixels.data(), ours.width);
    CHECK_MESSAGE(host.count == 0, describe(label, src.size(), dsize, "resize_linear_exact", host));

    const cascade::GrayView sv = view_of(src);
    const auto xt = cascade::linear_exact_taps(src.cols, dsize.width);
    const auto yt = cascade::linear_exact_taps(src.rows, dsize.height);
    std::vector<std::uint8_t> per_pixel(static_cast<std::size_t>(dsize.area()));
    for (int y = 0; y < dsize.height; ++y)
        for (int x = 0; x < dsize.width; ++x)
            per_pixel[static_cast<std::size_t>(y) * dsize.width + x] = cascade::resize_linear_exact_pixel(
                sv, xt[static_cast<std::size_t>(x)], yt[static_cast<std::size_t>(y)]);
    const Mismatch pixel = compare(expected, per_pixel.data(), dsize.width);
    CHECK_MESSAGE(pixel.count == 0, describe(label, src.size(), dsize, "resize_linear_exact_pixel", pixel));
    return host.count == 0 && pixel.count == 0;
}

// The level sizes cv::CascadeClassifier (4.6) would resize to for a 24x24 window: factor accumulated in
// double, stored as float, size = cvRound(W / scale) with float division; stops when a level drops below 24.
std::vector<cv::Size> pyramid_sizes(cv::Size image, double scale_factor) {
    std::vector<cv::Size> sizes;
    for (double factor = 1.0;; factor *= scale_factor) {
        const auto scale = static_cast<float>(factor);
        const cv::Size level(static_cast<int>(std::lrint(static_cast<float>(image.width) / scale)),
                             static_cast<int>(std::lrint(static_cast<float>(image.height) / scale)));
        if (level.width < 24 || level.height < 24) break;
        sizes.push_back(level);
    }
    return sizes;
}

cv::Size scaled(cv::Size s, double fx, double fy) {
    return {std::max(1, static_cast<int>(std::lrint(s.width * fx))),
            std::max(1, static_cast<int>(std::lrint(s.height * fy)))};
}

// Odd destination sizes for one source: 1-pixel lines and dots, upscaling, equal size, exact halving (OpenCV
// switches to INTER_AREA there), exact doubling, and mixed up/down per axis.
std::vector<cv::Size> odd_sizes(cv::Size s) {
    const auto at_least_1 = [](int w, int h) { return cv::Size(std::max(1, w), std::max(1, h)); };
    return {at_least_1(1, 1),
            at_least_1(1, s.height),
            at_least_1(s.width, 1),
            at_least_1(1, s.height / 2),
            at_least_1(s.width / 3, 1),
            scaled(s, 1.7, 1.7),
            scaled(s, 2.0, 2.0),
            s,
            at_least_1(s.width / 2, s.height / 2),
            at_least_1(s.width / 2 + 1, s.height / 2),
            scaled(s, 1.3, 0.4),
            scaled(s, 0.37, 1.15),
            at_least_1(s.width - 1, s.height + 1),
            at_least_1(7, 5)};
}

}  // namespace

TEST_CASE("resize_linear_exact equals cv::resize INTER_LINEAR_EXACT at every cascade pyramid level of real images") {
    const auto images = cascade::test::real_images();
    if (images.empty()) {
        MESSAGE("SKIP: no real images, nothing compared");
        return;
    }
    cv::ocl::setUseOpenCL(false);
    int compared = 0, equal = 0;
    for (const auto& source : images) {
        const cv::Mat gray = cascade::test::load_gray(source);
        for (double factor : {1.1, 1.05})
            for (const cv::Size& size : pyramid_sizes(gray.size(), factor)) {
                ++compared;
                equal += check_resize(source.label, gray, size) ? 1 : 0;
            }
    }
    MESSAGE(images.size() << " images, " << compared << " (image, size) pairs compared, " << equal << " equal");
    CHECK(equal == compared);
}

TEST_CASE("resize_linear_exact equals cv::resize INTER_LINEAR_EXACT at odd sizes of real images") {
    const auto images = cascade::test::real_images();
    if (images.empty()) {
        MESSAGE("SKIP: no real images, nothing compared");
        return;
    }
    cv::ocl::setUseOpenCL(false);
    int compared = 0, equal = 0;
    for (const auto& source : images) {
        const cv::Mat gray = cascade::test::load_gray(source);
        for (const cv::Size& size : odd_sizes(gray.size())) {
            ++compared;
            equal += check_resize(source.label, gray, size) ? 1 : 0;
        }
        // Strided views (a region of interest, stride > width) and tiny sources cut from the image.
        const cv::Rect rois[] = {{3, 5, gray.cols / 2, gray.rows / 3}, {10, 10, 1, 40}, {10, 10, 40, 1},
                                 {20, 20, 2, 2},  {0, 0, 1, 1},  {gray.cols - 30, gray.rows - 25, 30, 25}};
        for (const cv::Rect& roi : rois) {
            const cv::Mat part = gray(roi);
            for (const cv::Size& size : odd_sizes(part.size())) {
                ++compared;
                equal += check_resize(source.label + " roi", part, size) ? 1 : 0;
            }
        }
    }
    MESSAGE(images.size() << " images, " << compared << " (image, size) pairs compared, " << equal << " equal");
    CHECK(equal == compared);
}

TEST_CASE("resize_linear_exact equals cv::resize INTER_LINEAR_EXACT on small random images, all size pairs") {
    cv::ocl::setUseOpenCL(false);
    std::mt19937 rng(12345);
    std::uniform_int_distribution<int> byte(0, 255);
    int compared = 0, equal = 0;
    for (int sw : {1, 2, 3, 5, 8, 13, 24, 31}) {
        for (int sh : {1, 2, 4, 7, 24}) {
            cv::Mat src(sh, sw, CV_8UC1);
            for (int y = 0; y < sh; ++y)
                for (int x = 0; x < sw; ++x) src.at<std::uint8_t>(y, x) = static_cast<std::uint8_t>(byte(rng));
            for (int dw = 1; dw <= 64; dw += (dw < 20 ? 1 : 7))
                for (int dh : {1, 2, 3, 5, 11, 24, 47}) {
                    ++compared;
                    equal += check_resize("random", src, {dw, dh}) ? 1 : 0;
                }
        }
    }
    MESSAGE(compared << " random (source, size) pairs compared, " << equal << " equal");
    CHECK(equal == compared);
}

// (source length, destination length) pairs where the tap arithmetic is fragile, found by enumerating lengths
// up to 4000: destination lengths with the factor 256 make (pos - i) * 256 land on or next to .5, so the
// result depends on ties going to even, on the step being 1 / (dst / src) rather than src / dst, and on the
// multiply and the subtraction being rounded separately (an FMA changes some of these weights).
const std::pair<int, int> kFragileLengths[] = {{257, 256}, {259, 256}, {391, 256}, {443, 256}, {773, 768},
                                               {797, 768}, {805, 768}, {2, 512},   {3, 256},   {5, 768},
                                               {7, 1280},  {9, 1280},  {11, 768},  {17, 768},  {29, 1792}};

TEST_CASE("resize_linear_exact equals cv::resize INTER_LINEAR_EXACT where rounding ties and last bits matter") {
    cv::ocl::setUseOpenCL(false);
    std::mt19937 rng(777);
    std::uniform_int_distribution<int> byte(0, 255);
    int compared = 0, equal = 0;
    for (const auto& [from, to] : kFragileLengths) {
        // Along x, along y, and both at once, on random pixels (every weight shows in the result).
        for (const auto& [src_size, dst_size] :
             {std::pair{cv::Size(from, 3), cv::Size(to, 5)}, std::pair{cv::Size(4, from), cv::Size(3, to)},
              std::pair{cv::Size(from, from), cv::Size(to, to)}}) {
            cv::Mat src(src_size, CV_8UC1);
            for (int y = 0; y < src.rows; ++y)
                for (int x = 0; x < src.cols; ++x) src.at<std::uint8_t>(y, x) = static_cast<std::uint8_t>(byte(rng));
            ++compared;
            equal += check_resize("random fragile", src, dst_size) ? 1 : 0;
        }
    }
    // The same length pairs on crops of real images, where they fit.
    for (const auto& source : cascade::test::real_images()) {
        const cv::Mat gray = cascade::test::load_gray(source);
        for (const auto& [from, to] : kFragileLengths) {
            if (from > gray.cols || from > gray.rows) continue;
            const cv::Mat part = gray(cv::Rect(gray.cols - from, 0, from, from));
            ++compared;
            equal += check_resize(source.label + " fragile crop", part, {to, to}) ? 1 : 0;
        }
    }
    MESSAGE(compared << " fragile (source, size) pairs compared, " << equal << " equal");
    CHECK(equal == compared);
}

TEST_CASE("linear_exact_taps: weights sum to 256, offsets stay inside the source, bad sizes throw") {
    int bad = 0;
    for (int src = 1; src <= 70; ++src)
        for (int dst = 1; dst <= 70; ++dst) {
            const auto taps = cascade::linear_exact_taps(src, dst);
            REQUIRE(taps.size() == static_cast<std::size_t>(dst));
            for (const auto& t : taps) {
                const bool ok = t.weight0 + t.weight1 == 256 && t.offset0 >= 0 && t.offset1 < src &&
                                (t.offset1 == t.offset0 || t.offset1 == t.offset0 + 1);
                if (!ok && bad++ == 0)
                    MESSAGE("bad tap for " << src << " -> " << dst << ": " << t.offset0 << "/" << t.offset1 << " "
                                           << t.weight0 << "/" << t.weight1);
            }
        }
    CHECK(bad == 0);
    CHECK_THROWS_AS(cascade::linear_exact_taps(0, 5), std::invalid_argument);
    CHECK_THROWS_AS(cascade::linear_exact_taps(5, 0), std::invalid_argument);
    cascade::GrayImage empty;
    const std::uint8_t pixel = 7;
    CHECK_THROWS_AS(cascade::resize_linear_exact({&pixel, 1, 1, 1}, empty), std::invalid_argument);
}
