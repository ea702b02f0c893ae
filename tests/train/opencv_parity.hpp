// The check both stage trainers' tests make of a freshly trained cascade: written in OpenCV's XML at `path`, it
// reads back as the same model, and on every real image (tests/support/test_data.hpp) cv::CascadeClassifier's
// raw and grouped (min neighbours 3) windows at scale step 1.1 equal this toolkit's CPU detector's, run on
// the trained cascade itself; more than 100 raw windows in all (equal empty sets would prove nothing).
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <opencv2/core/ocl.hpp>
#include <opencv2/objdetect.hpp>
#include <string>
#include <utility>
#include <vector>

#include "common/model_io.hpp"
#include "common/opencv_cascade_xml.hpp"
#include "common/postprocess.hpp"
#include "tests/support/test_data.hpp"

namespace cascade::test {

inline std::vector<Rect> sorted_rects(std::vector<Rect> rects) {
    std::sort(rects.begin(), rects.end());
    return rects;
}

template <class Cascade>
void check_opencv_parity(const Cascade& cascade, const std::string& path, const std::vector<ImageSource>& images,
                         const OpenCvStageParams& written = {}) {
    save_opencv_cascade(cascade, written, path);
    const Model model = load_model(path);
    CHECK(model_xml(Model{std::get<Cascade>(model.cascade), "m"}, "m") == model_xml(Model{cascade, "m"}, "m"));
    cv::ocl::setUseOpenCL(false);
    cv::CascadeClassifier opencv(path);
    REQUIRE(!opencv.empty());
    int windows = 0;
    for (const auto& source : images) {
        const cv::Mat gray = load_gray(source);
        const GrayView view{gray.data, gray.cols, gray.rows, static_cast<int>(gray.step)};
        ScanParams params;
        params.pyramid.scale_factor = 1.1;
        const std::vector<Detection> raw = detect_windows(cascade, view, params);
        std::vector<cv::Rect> theirs_raw, theirs_grouped;
        opencv.detectMultiScale(gray, theirs_raw, 1.1, 0);
        opencv.detectMultiScale(gray, theirs_grouped, 1.1, 3);
        GroupingParams none, grouped;
        none.method = Grouping::none;
        grouped.min_neighbors = 3;
        const Size size{gray.cols, gray.rows};
        // A pair, not a structured binding: INFO captures by reference, and C++17 cannot capture a binding.
        for (const auto& run : {std::pair{none, theirs_raw}, std::pair{grouped, theirs_grouped}}) {
            const GroupingParams& ours_params = run.first;
            const std::vector<cv::Rect>& theirs = run.second;
            std::vector<Rect> ours, opencv_rects;
            for (const Detection& d : group_and_clip(raw, ours_params, size, cascade.window)) ours.push_back(d.rect);
            for (const cv::Rect& r : theirs) opencv_rects.push_back({r.x, r.y, r.width, r.height});
            INFO(source.label << " grouped " << (ours_params.method != Grouping::none) << ": " << ours.size()
                 << " ours, " << opencv_rects.size() << " OpenCV's");
            CHECK(sorted_rects(ours) == sorted_rects(opencv_rects));
        }
        windows += static_cast<int>(raw.size());
    }
    MESSAGE(windows << " raw windows compared");
    CHECK(windows > 100);
}

}  // namespace cascade::test
