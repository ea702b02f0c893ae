// Pyramid geometry beyond OpenCV's rule: a first scale below 1 (upsampled first levels). OpenCV's own levels
// are checked against cv::CascadeClassifier in test_opencv_parity.
#include <doctest/doctest.h>

#include "common/pyramid.hpp"

using namespace cascade;

TEST_CASE("pyramid_levels with first_scale 0.5 starts on an upsampled level and keeps the fit rule") {
    PyramidParams params;
    params.scale_factor = 2.0;
    params.first_scale = 0.5;
    // Window 20x20 on 100x100: scales 0.5, 1, 2, 4 (a window of 80 fits, 160 does not).
    const std::vector<PyramidLevel> levels = pyramid_levels({100, 100}, {20, 20}, params);
    REQUIRE(levels.size() == 4);
    const float scales[] = {0.5f, 1.f, 2.f, 4.f};
    const int sizes[] = {200, 100, 50, 25};
    const int windows[] = {10, 20, 40, 80};
    for (int i = 0; i < 4; ++i) {
        CAPTURE(i);
        CHECK(levels[i].scale == scales[i]);
        CHECK(levels[i].size == Size{sizes[i], sizes[i]});
        CHECK(levels[i].window == Size{windows[i], windows[i]});
    }
}

TEST_CASE("pyramid_levels with first_scale: min_object and max_object select among the upsampled levels") {
    PyramidParams params;
    params.scale_factor = 2.0;
    params.first_scale = 0.25;  // windows 5, 10, 20, 40, 80 on a 100x100 image
    params.min_object = {10, 10};
    params.max_object = {40, 40};
    const std::vector<PyramidLevel> levels = pyramid_levels({100, 100}, {20, 20}, params);
    REQUIRE(levels.size() == 3);
    CHECK(levels.front().window == Size{10, 10});
    CHECK(levels.front().size == Size{200, 200});
    CHECK(levels.back().window == Size{40, 40});
}

TEST_CASE("pyramid_levels: an image smaller than the window has no levels, even with first_scale < 1") {
    PyramidParams params;
    params.first_scale = 0.5;
    CHECK(pyramid_levels({15, 40}, {20, 20}, params).empty());
}
