// cascade-match end to end on real images: copies of a patch pasted into a photo are found (scores, positions,
// JSON and CSV, annotated pictures), exactly and by score; the best match per frame of a video; --scales on an
// enlarged photo; region covariance; every bad option and input a one-line error. Skips with a message when
// opencv-doc is absent.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/videoio.hpp>
#include <string>
#include <utility>
#include <vector>

#include "cli/json.hpp"
#include "tests/support/test_data.hpp"
#include "tests/support/tool_run.hpp"

using cascade::cli::Json;
using cascade::cli::parse_json;
using namespace cascade::test;

namespace {

const std::string kSamples = "/usr/share/doc/opencv-doc/examples/data/";

ToolResult match(const std::vector<std::string>& args) { return run_tool(CASCADE_MATCH_EXE, args); }

using Spot = std::pair<int, int>;

std::vector<Spot> spots_of(const Json& report) {
    std::vector<Spot> out;
    for (const Json& d : report.at("detections").items) out.emplace_back(d.at("x").integer(), d.at("y").integer());
    std::sort(out.begin(), out.end());
    return out;
}

// scene.png: a region of baboon.jpg with three copies of its 16x16 patch at (60, 40) pasted in; template.png.
bool write_scene(const TempDir& dir, int flags) {
    const auto path = system_file(kSamples + "baboon.jpg");
    if (!path) return false;
    cv::Mat scene = cv::imread(*path, flags)(cv::Rect(100, 120, 160, 120)).clone();
    const cv::Mat templ = scene(cv::Rect(60, 40, 16, 16)).clone();
    for (const cv::Point at : {cv::Point(10, 12), cv::Point(90, 30), cv::Point(40, 85)})
        templ.copyTo(scene(cv::Rect(at, templ.size())));
    return cv::imwrite(dir / "scene.png", scene) && cv::imwrite(dir / "template.png", templ);
}

const std::vector<Spot> kPasted{{10, 12}, {40, 85}, {60, 40}, {90, 30}};

}  // namespace

TEST_CASE("cascade-match finds every pasted copy, by score and exactly, in grey and colour") {
    for (const int flags : {cv::IMREAD_GRAYSCALE, cv::IMREAD_COLOR}) {
        TempDir dir;
        if (!write_scene(dir, flags)) return;
        const ToolResult scored = match({"--template", dir / "template.png", "--threshold", "0.99", "--top", "0",
                                         "--output", dir / "m.json", "--annotate", dir / "marked", dir / "scene.png"});
        REQUIRE(scored.code == 0);
        const Json report = parse_json(read_text(dir / "m.json"));
        CHECK(report.at("method").text == "ccoeff_normed");
        CHECK(report.at("channels").integer() == (flags == cv::IMREAD_COLOR ? 3 : 1));
        CHECK(spots_of(report) == kPasted);
        for (const Json& d : report.at("detections").items) {
            CHECK(d.at("score").number == doctest::Approx(1.0).epsilon(1e-6));
            CHECK(d.at("w").integer() == 16);
        }
        CHECK(std::filesystem::exists(dir / "marked/scene.png"));

        const ToolResult exact = match({"--template", dir / "template.png", "--method", "exact", "--format", "csv",
                                        "-q", dir / "scene.png"});
        REQUIRE(exact.code == 0);
        CHECK(std::count(exact.out.begin(), exact.out.end(), '\n') == 5);  // header and the four positions
        CHECK(exact.out.find(",10,12,16,16,0\n") != std::string::npos);

        const ToolResult best =
            match({"--template", dir / "template.png", "--method", "sqdiff", "-q", dir / "scene.png"});
        REQUIRE(best.code == 0);
        const Json one = parse_json(best.out);
        REQUIRE(one.at("detections").items.size() == 1);
        CHECK(one.at("detections").items[0].at("score").number == 0.0);
    }
}

TEST_CASE("cascade-match gives the best match in each frame of a video") {
    const auto video = system_file(kSamples + "vtest.avi");
    if (!video) return;
    cv::VideoCapture capture(*video);
    cv::Mat first;
    REQUIRE(capture.read(first));
    TempDir dir;
    cv::imwrite(dir / "patch.png", first(cv::Rect(300, 200, 24, 24)));
    const ToolResult r = match({"--template", dir / "patch.png", "--max-frames", "2", "-q", *video});
    REQUIRE(r.code == 0);
    const Json report = parse_json(r.out);
    REQUIRE(report.at("detections").items.size() == 2);
    const Json& d = report.at("detections").items[0];
    CHECK(d.at("frame").integer() == 0);
    CHECK(d.at("x").integer() == 300);
    CHECK(d.at("y").integer() == 200);
    CHECK(d.at("score").number == doctest::Approx(1.0).epsilon(1e-6));
    CHECK(report.at("detections").items[1].at("frame").integer() == 1);
}

TEST_CASE("cascade-match --scales finds the template in a photo enlarged twice, at twice its size") {
    TempDir dir;
    if (!write_scene(dir, cv::IMREAD_COLOR)) return;
    cv::Mat scene = cv::imread(dir / "scene.png"), large;
    cv::resize(scene, large, {}, 2.0, 2.0, cv::INTER_LINEAR);
    cv::imwrite(dir / "large.png", large);
    const ToolResult r = match({"--template", dir / "template.png", "--scales", "1,2", "-q", dir / "large.png"});
    REQUIRE(r.code == 0);
    const Json report = parse_json(r.out);
    REQUIRE(report.at("detections").items.size() == 1);
    const Json& d = report.at("detections").items[0];
    CHECK(d.at("w").integer() == 32);
    const auto near = [](int value, int target) { return std::abs(value - target) <= 2; };
    const std::vector<Spot> doubled{{20, 24}, {80, 170}, {120, 80}, {180, 60}};
    CHECK(std::any_of(doubled.begin(), doubled.end(), [&](Spot s) {
        return near(d.at("x").integer(), s.first) && near(d.at("y").integer(), s.second);
    }));
    CHECK(d.at("score").number > 0.9);
}

TEST_CASE("cascade-match --method cov-forstner / cov-jbld finds a window cut from a photo by region covariance") {
    const auto path = system_file(kSamples + "fruits.jpg");
    if (!path) return;
    TempDir dir;
    const cv::Mat photo = cv::imread(*path)(cv::Rect(0, 0, 320, 240)).clone();
    cv::imwrite(dir / "photo.png", photo);
    cv::imwrite(dir / "patch.png", photo(cv::Rect(120, 80, 48, 40)));
    for (const char* method : {"cov-forstner", "cov-jbld"})
        for (const char* features : {"basic", "extended"}) {
            const ToolResult r = match({"--template", dir / "patch.png", "--method", method, "--features", features,
                                        "--step", "4", "-q", dir / "photo.png"});
            REQUIRE(r.code == 0);
            const Json report = parse_json(r.out);
            CHECK(report.at("method").text == method);
            REQUIRE(report.at("detections").items.size() == 1);
            const Json& d = report.at("detections").items[0];
            INFO(method, " ", features);
            CHECK(d.at("x").integer() == 120);
            CHECK(d.at("y").integer() == 80);
            CHECK(d.at("w").integer() == 48);
        }
}

TEST_CASE("cascade-match --backend gpu gives the CPU's matches, or says why it cannot run") {
    TempDir dir;
    if (!write_scene(dir, cv::IMREAD_COLOR)) return;
    for (const std::vector<std::string>& method :
         {std::vector<std::string>{"--method", "ccoeff_normed", "--threshold", "0.5", "--top", "0"},
          std::vector<std::string>{"--method", "exact"}, std::vector<std::string>{"--method", "cov-jbld"}}) {
        std::vector<std::string> args{"--template", dir / "template.png", "-q", dir / "scene.png"};
        args.insert(args.end(), method.begin(), method.end());
        const ToolResult cpu = match(args);
        REQUIRE(cpu.code == 0);
        args.insert(args.end(), {"--backend", "gpu"});
        const ToolResult gpu = match(args);
        if (gpu.code != 0) {
#ifdef CASCADE_MATCH_HAS_GPU
            check_error(gpu, 1, "cascade-match", "--backend gpu");
            MESSAGE("SKIP: no CUDA device: --backend gpu refused as it should be");
#else
            check_error(gpu, 2, "cascade-match", "--backend");
#endif
            return;
        }
        // Scores: equal for the integer modes; region covariance distances within 1e-6 (docs/matching.md).
        const double tolerance = method[1] == "cov-jbld" ? 1e-6 : 0.0;
        const Json gpu_report = parse_json(gpu.out), cpu_report = parse_json(cpu.out);
        const auto& g = gpu_report.at("detections").items;
        const auto& c = cpu_report.at("detections").items;
        REQUIRE(g.size() == c.size());
        for (std::size_t i = 0; i < c.size(); ++i) {
            for (const char* key : {"x", "y", "w", "h"}) CHECK(g[i].at(key).integer() == c[i].at(key).integer());
            CHECK(g[i].at("score").number == doctest::Approx(c[i].at("score").number).epsilon(tolerance));
        }
    }
}

TEST_CASE("cascade-match: bad options and inputs are one-line errors and leave nothing behind") {
    TempDir dir;
    if (!write_scene(dir, cv::IMREAD_GRAYSCALE)) return;
    const std::string t = dir / "template.png", scene = dir / "scene.png";
    check_error(match({scene}), 2, "cascade-match", "--template");
    check_error(match({"--template", dir / "none.png", scene}), 1, "cascade-match", dir / "none.png");
    check_error(match({"--template", t, "--method", "fast", scene}), 2, "cascade-match", "--method");
    check_error(match({"--template", t, "--method", "exact", "--threshold", "0", scene}), 2, "cascade-match",
                "--threshold");
    check_error(match({"--template", t, "--scales", "1,", scene}), 2, "cascade-match", "--scales");
    check_error(match({"--template", t, "--scales", "0", scene}), 2, "cascade-match", "--scales");
    check_error(match({"--template", t, "--top", "-1", scene}), 2, "cascade-match", "--top");
    check_error(match({"--template", t, "--nms-iou", "2", scene}), 2, "cascade-match", "--nms-iou");
    check_error(match({"--template", t, "--features", "basic", scene}), 2, "cascade-match", "--features");
    check_error(match({"--template", t, "--backend", "tpu", scene}), 2, "cascade-match", "--backend");
    check_error(match({"--template", t, "--method", "cov-jbld", "--step", "0", scene}), 2, "cascade-match", "--step");
    check_error(match({"--template", t, "--method", "cov-jbld", "--features", "all", scene}), 2, "cascade-match",
                "--features");
    check_error(match({"--template", t, "--scales", "20", "--output", dir / "m.json", scene}), 1, "cascade-match",
                scene);  // 320x320 template in a 160x120 scene
    CHECK(!std::filesystem::exists(dir / "m.json"));
    check_error(match({"--template", t, "--output", t, scene}), 2, "cascade-match", "--output");
}
