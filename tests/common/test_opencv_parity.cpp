// The CPU reference detector against cv::CascadeClassifier::detectMultiScale: the same raw windows and the
// same grouped detections (rectangles, not counts) for OpenCV's own LBP and Haar cascades on real images.
#include <doctest/doctest.h>

#include <algorithm>
#include <iterator>
#include <opencv2/core/ocl.hpp>
#include <opencv2/objdetect.hpp>
#include <sstream>

#include "common/postprocess.hpp"
#include "common/haar_cpu_detector.hpp"
#include "common/lbp_cpu_detector.hpp"
#include "common/model_io.hpp"
#include "tests/support/test_data.hpp"

namespace {

using cascade::Rect;

std::vector<Rect> sorted(std::vector<Rect> rects) {
    std::sort(rects.begin(), rects.end());
    return rects;
}

std::vector<Rect> from_cv(const std::vector<cv::Rect>& rects) {
    std::vector<Rect> out;
    for (const cv::Rect& r : rects) out.push_back({r.x, r.y, r.width, r.height});
    return sorted(out);
}

std::vector<Rect> rects_of(const std::vector<cascade::Detection>& detections) {
    std::vector<Rect> out;
    for (const auto& d : detections) out.push_back(d.rect);
    return sorted(out);
}

std::string describe_difference(const std::vector<Rect>& ours, const std::vector<Rect>& theirs) {
    std::vector<Rect> only_ours, only_theirs;
    std::set_difference(ours.begin(), ours.end(), theirs.begin(), theirs.end(), std::back_inserter(only_ours));
    std::set_difference(theirs.begin(), theirs.end(), ours.begin(), ours.end(), std::back_inserter(only_theirs));
    std::ostringstream s;
    s << ours.size() << " ours vs " << theirs.size() << " OpenCV; only ours: " << only_ours.size()
      << ", only OpenCV: " << only_theirs.size();
    if (!only_ours.empty())
        s << "; e.g. ours " << only_ours[0].x << "," << only_ours[0].y << " " << only_ours[0].width << "x"
          << only_ours[0].height;
    if (!only_theirs.empty())
        s << "; e.g. OpenCV " << only_theirs[0].x << "," << only_theirs[0].y << " " << only_theirs[0].width << "x"
          << only_theirs[0].height;
    return s.str();
}

struct Setting {
    double scale_factor;
    cv::Size min_size, max_size;
};

struct Tally {
    int compared = 0, windows = 0;
};

// Our raw and grouped windows against OpenCV's for one cascade on one image under one setting.
template <class Cascade>
void compare(cv::CascadeClassifier& opencv, const Cascade& ours, const cv::Mat& gray, const Setting& setting,
             Tally& tally) {
    const cascade::GrayView view{gray.data, gray.cols, gray.rows, static_cast<int>(gray.step)};
    cascade::ScanParams params;
    params.pyramid.scale_factor = setting.scale_factor;
    params.pyramid.min_object = {setting.min_size.width, setting.min_size.height};
    params.pyramid.max_object = {setting.max_size.width, setting.max_size.height};
    const std::vector<cascade::Detection> raw = cascade::detect_windows(ours, view, params);

    std::vector<cv::Rect> opencv_raw, opencv_grouped;
    opencv.detectMultiScale(gray, opencv_raw, setting.scale_factor, 0, 0, setting.min_size, setting.max_size);
    opencv.detectMultiScale(gray, opencv_grouped, setting.scale_factor, 3, 0, setting.min_size, setting.max_size);

    const cascade::Size image_size{gray.cols, gray.rows};
    cascade::GroupingParams no_grouping, opencv_grouping;
    no_grouping.method = cascade::Grouping::none;
    opencv_grouping.min_neighbors = 3;
    const auto our_raw = rects_of(cascade::group_and_clip(raw, no_grouping, image_size, ours.window));
    const auto their_raw = from_cv(opencv_raw);
    const auto our_grouped = rects_of(cascade::group_and_clip(raw, opencv_grouping, image_size, ours.window));
    const auto their_grouped = from_cv(opencv_grouped);
    CHECK_MESSAGE(our_raw == their_raw, describe_difference(our_raw, their_raw));
    CHECK_MESSAGE(our_grouped == their_grouped, describe_difference(our_grouped, their_grouped));
    ++tally.compared;
    tally.windows += static_cast<int>(raw.size());
}

}  // namespace

TEST_CASE("CPU detector equals OpenCV's CascadeClassifier on real images, raw and grouped") {
    const auto cascades = cascade::test::opencv_lbp_cascades();
    const auto images = cascade::test::real_images();
    if (cascades.empty() || images.empty()) return;
    cv::ocl::setUseOpenCL(false);

    const Setting settings[] = {{1.1, {}, {}}, {1.2, {}, {}}, {1.05, {40, 40}, {160, 160}}};
    Tally tally;
    for (const std::string& path : cascades) {
        cv::CascadeClassifier opencv(path);
        REQUIRE_MESSAGE(!opencv.empty(), "OpenCV could not load " << path);
        const cascade::Model model = cascade::load_model(path);
        const auto& ours = std::get<cascade::LbpCascade>(model.cascade);
        for (const auto& source : images) {
            const cv::Mat gray = cascade::test::load_gray(source);
            for (const Setting& setting : settings) {
                INFO(path << " on " << source.label << " at scale factor " << setting.scale_factor);
                compare(opencv, ours, gray, setting, tally);
            }
        }
    }
    MESSAGE("compared " << tally.compared << " (cascade, image, setting) runs, " << tally.windows
                        << " raw windows in all");
    // Equality of empty sets proves nothing: the comparison must have seen real detections.
    CHECK(tally.windows > 100);
}

// Every Haar cascade of opencv-data (the old-format licence plate one too) on real images: each cascade on two
// images (taken in turn, so that every image is used), one at each setting, to keep the test short.
TEST_CASE("CPU Haar detector equals OpenCV's CascadeClassifier on real images, raw and grouped") {
    const auto cascades = cascade::test::opencv_haar_cascades();
    const auto images = cascade::test::real_images();
    if (cascades.empty() || images.empty()) return;
    cv::ocl::setUseOpenCL(false);

    std::vector<cv::Mat> grays;
    for (const auto& source : images) grays.push_back(cascade::test::load_gray(source));
    const Setting settings[] = {{1.1, {}, {}}, {1.2, {30, 30}, {200, 200}}};
    Tally tally;
    std::size_t next_image = 0;
    for (const std::string& path : cascades) {
        cv::CascadeClassifier opencv(path);
        REQUIRE_MESSAGE(!opencv.empty(), "OpenCV could not load " << path);
        const cascade::Model model = cascade::load_model(path);
        const auto& ours = std::get<cascade::HaarCascade>(model.cascade);
        for (const Setting& setting : settings) {
            INFO(path << " on " << images[next_image].label << " at scale factor " << setting.scale_factor);
            compare(opencv, ours, grays[next_image], setting, tally);
            next_image = (next_image + 1) % images.size();
        }
    }
    MESSAGE("compared " << tally.compared << " (cascade, image, setting) runs, " << tally.windows
                        << " raw windows in all");
    CHECK(tally.windows > 100);
}
