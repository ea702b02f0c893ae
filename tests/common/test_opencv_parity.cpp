// The CPU reference detector against cv::CascadeClassifier::detectMultiScale: the same raw windows and the
// same grouped detections (rectangles, not counts) for OpenCV's own LBP cascades on real images.
#include <doctest/doctest.h>

#include <algorithm>
#include <iterator>
#include <opencv2/core/ocl.hpp>
#include <opencv2/objdetect.hpp>
#include <sstream>

#include "common/postprocess.hpp"
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

}  // namespace

TEST_CASE("CPU detector equals OpenCV's CascadeClassifier on real images, raw and grouped") {
    const auto cascades = cascade::test::opencv_lbp_cascades();
    const auto images = cascade::test::real_images();
    if (cascades.empty() || images.empty()) return;
    cv::ocl::setUseOpenCL(false);

    const Setting settings[] = {{1.1, {}, {}}, {1.2, {}, {}}, {1.05, {40, 40}, {160, 160}}};
    int compared = 0, windows = 0;
    for (const std::string& path : cascades) {
        cv::CascadeClassifier opencv(path);
        REQUIRE_MESSAGE(!opencv.empty(), "OpenCV could not load " << path);
        const cascade::Model model = cascade::load_model(path);
        const auto& ours = std::get<cascade::LbpCascade>(model.cascade);
        for (const auto& source : images) {
            const cv::Mat gray = cascade::test::load_gray(source);
            const cascade::GrayView view{gray.data, gray.cols, gray.rows, static_cast<int>(gray.step)};
            for (const Setting& setting : settings) {
                cascade::ScanParams params;
                params.pyramid.scale_factor = setting.scale_factor;
                params.pyramid.min_object = {setting.min_size.width, setting.min_size.height};
                params.pyramid.max_object = {setting.max_size.width, setting.max_size.height};
                const std::vector<cascade::Detection> raw = cascade::detect_windows(ours, view, params);

                std::vector<cv::Rect> opencv_raw, opencv_grouped;
                opencv.detectMultiScale(gray, opencv_raw, setting.scale_factor, 0, 0, setting.min_size,
                                        setting.max_size);
                opencv.detectMultiScale(gray, opencv_grouped, setting.scale_factor, 3, 0, setting.min_size,
                                        setting.max_size);

                const cascade::Size image_size{gray.cols, gray.rows};
                cascade::GroupingParams no_grouping, opencv_grouping;
                no_grouping.method = cascade::Grouping::none;
                opencv_grouping.min_neighbors = 3;
                const auto our_raw_rects = rects_of(cascade::group_and_clip(raw, no_grouping, image_size, ours.window));
                const auto their_raw_rects = from_cv(opencv_raw);
                const auto our_grouped =
                    rects_of(cascade::group_and_clip(raw, opencv_grouping, image_size, ours.window));
                const auto their_grouped = from_cv(opencv_grouped);
                INFO(path << " on " << source.label << " at scale factor " << setting.scale_factor);
                CHECK_MESSAGE(our_raw_rects == their_raw_rects, describe_difference(our_raw_rects, their_raw_rects));
                CHECK_MESSAGE(our_grouped == their_grouped, describe_difference(our_grouped, their_grouped));
                ++compared;
                windows += static_cast<int>(raw.size());
            }
        }
    }
    MESSAGE("compared " << compared << " (cascade, image, setting) runs, " << windows << " raw windows in all");
    // Equality of empty sets proves nothing: the comparison must have seen real detections.
    CHECK(windows > 100);
}
