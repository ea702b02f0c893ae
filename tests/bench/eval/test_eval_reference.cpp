// cascade-eval window --reference: OpenCV's HOGDescriptor people detector scored on the cascades' windows,
// checked against the same detector's descriptors computed independently (HOGDescriptor::compute at the
// windows' positions, then the SVM's dot product), and the work per window beside each curve. Real data
// (../shared/data; skipped with "SKIP:" without it).
#include <doctest/doctest.h>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/objdetect.hpp>
#include <string>
#include <vector>

#include "bench/eval/eval_result.hpp"
#include "bench/eval/miss_rate_curve.hpp"
#include "common/hog_cpu_detector.hpp"
#include "common/model_io.hpp"
#include "common/pyramid.hpp"
#include "data/image_files.hpp"
#include "tests/bench/eval/eval_tool_run.hpp"
#include "tests/support/test_data.hpp"
#include "tests/support/tool_run.hpp"

using namespace cascade;
using namespace cascade::test;

namespace {

// The people detector's decision value on the 64x128 window at `at` of `image`: its descriptor from
// HOGDescriptor::compute, the SVM weights and bias from getDefaultPeopleDetector.
double svm_score(const cv::HOGDescriptor& hog, const cv::Mat& image, cv::Point at) {
    std::vector<float> descriptor;
    hog.compute(image, descriptor, cv::Size(), cv::Size(0, 0), {at});
    const std::vector<float> svm = cv::HOGDescriptor::getDefaultPeopleDetector();
    REQUIRE(descriptor.size() + 1 == svm.size());
    double score = svm.back();
    for (std::size_t k = 0; k < descriptor.size(); ++k) score += static_cast<double>(descriptor[k]) * svm[k];
    return score;
}

// The per-window curve of the colour reference, computed without cascade-eval.
std::vector<eval::CurvePoint> expected_curve(const std::string& pos, const std::string& neg, double& windows) {
    const cv::HOGDescriptor hog;
    std::vector<double> hits, alarms;
    for (const std::string& path : data::read_lines(pos)) {
        const cv::Mat crop = cv::imread(path, cv::IMREAD_COLOR);
        hits.push_back(svm_score(hog, crop, {(crop.cols - 64) / 2, (crop.rows - 128) / 2}));
    }
    PyramidParams pyramid;
    pyramid.scale_factor = 1.2;
    windows = 0.0;
    for (const std::string& path : data::read_lines(neg)) {
        const cv::Mat image = cv::imread(path, cv::IMREAD_COLOR);
        for (const PyramidLevel& level : pyramid_levels({image.cols, image.rows}, {64, 128}, pyramid)) {
            cv::Mat scaled;
            cv::resize(image, scaled, cv::Size(level.size.width, level.size.height), 0, 0, cv::INTER_LINEAR_EXACT);
            for (int y = 0; y + 128 <= scaled.rows; y += 8)
                for (int x = 0; x + 64 <= scaled.cols; x += 8) {
                    alarms.push_back(svm_score(hog, scaled, {x, y}));
                    windows += 1.0;
                }
        }
    }
    const int positives = static_cast<int>(hits.size());
    return eval::miss_rate_curve(std::move(hits), positives, std::move(alarms), windows);
}

}  // namespace

TEST_CASE("cascade-eval window --reference opencv-hog scores OpenCV's people detector on the cascades' windows") {
    const auto data = shared_data_dir();
    if (!data) return;
    const TempDir dir("cascade-eval-reference");
    const std::string pos = list_of_first(*data + "/inria/96X160H96/Train/pos", 24, dir, "pos.lst");
    const std::string neg = list_of_first(*data + "/inria/Train/neg", 2, dir, "neg.lst");
    const ToolResult r = run_eval({"window", "--model", kHogModel, "--reference", "opencv-hog", "--reference",
                                   "opencv-hog-gray", "--pos", pos, "--neg", neg, "--stride", "8", "--scale-factor",
                                   "1.2", "--json", dir / "w.json", "--plot", dir / "w.png"});
    INFO("stderr: " << r.err);
    REQUIRE(r.code == 0);
    const eval::EvalResult result = eval::read_json(dir / "w.json");
    REQUIRE(result.models.size() == 3);
    const eval::ModelResult &cascade = result.models[0], &colour = result.models[1], &gray = result.models[2];
    CHECK(colour.model == "opencv-hog");
    CHECK(gray.model == "opencv-hog-gray");
    for (const eval::ModelResult* m : {&colour, &gray}) {
        CHECK(m->units == cascade.units);  // the same negative windows
        CHECK(m->positives == 24);
        CHECK(m->work_unit == "blocks");
        CHECK(m->work_per_window == 105.0);
    }

    double windows = 0.0;
    const std::vector<eval::CurvePoint> expected = expected_curve(pos, neg, windows);
    CHECK(colour.units == windows);
    REQUIRE(colour.curve.size() == expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
        CAPTURE(i);
        CHECK(colour.curve[i].threshold == doctest::Approx(expected[i].threshold).epsilon(1e-5));
        // (the JSON holds nine significant digits)
        CHECK(colour.curve[i].false_positives == doctest::Approx(expected[i].false_positives).epsilon(1e-8));
        CHECK(colour.curve[i].miss_rate == doctest::Approx(expected[i].miss_rate).epsilon(1e-8));
    }
    // Gray and colour images give the detector different gradients, so different scores.
    CHECK(gray.curve.front().threshold != doctest::Approx(colour.curve.front().threshold));
}

TEST_CASE("cascade-eval window reports the blocks the HoG cascade evaluates per window, as its detector counts them") {
    const auto data = shared_data_dir();
    if (!data) return;
    const TempDir dir("cascade-eval-reference");
    const std::string pos = list_of_first(*data + "/inria/96X160H96/Train/pos", 4, dir, "pos.lst");
    const std::string neg = list_of_first(*data + "/inria/Train/neg", 3, dir, "neg.lst");
    const ToolResult r = run_eval({"window", "--model", kHogModel, "--model", kLbpModel, "--pos", pos, "--neg", neg,
                                   "--stride", "8", "--scale-factor", "1.2", "--json", dir / "w.json"});
    INFO("stderr: " << r.err);
    REQUIRE(r.code == 0);
    const eval::EvalResult result = eval::read_json(dir / "w.json");
    REQUIRE(result.models.size() == 2);
    ScanParams scan;
    scan.rule.stride = 8;
    scan.pyramid.scale_factor = 1.2;
    const HogCascade hog = std::get<HogCascade>(load_model(kHogModel).cascade);
    ScanStats all;
    for (const std::string& path : data::read_lines(neg)) {
        ScanStats stats;
        detect_windows(hog, data::read_gray(path).view(), scan, &stats);
        all.add(stats);
    }
    CHECK(result.models[0].work_unit == "blocks");
    CHECK(result.models[0].work_per_window == doctest::Approx(all.weaks_per_window()).epsilon(1e-8));
    CHECK(result.models[1].work_unit == "weak learners");
    CHECK(result.models[1].work_per_window >= 1.0);
}

TEST_CASE("cascade-eval window --reference: an unknown name or labels without models is a usage error") {
    check_error(run_eval({"window", "--reference", "dlib-hog", "--pos", "p", "--neg", "n"}), 2, "--reference");
    check_error(run_eval({"window", "--reference", "opencv-hog", "--label", "x", "--pos", "p", "--neg", "n"}), 2,
                "--label");
    check_error(run_eval({"window", "--pos", "p", "--neg", "n"}), 2, "--model");
}
