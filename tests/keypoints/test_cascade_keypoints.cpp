// cascade-keypoints end to end on real images (opencv-doc): the corners it reports (JSON and CSV) are the CPU
// reference's on the same grey image; folders, list files and video frames; annotated pictures; --backend gpu
// gives the same corners or is refused with a one-line error; every bad option and input is a one-line error
// that leaves nothing behind. Skips with a message when opencv-doc is absent.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <string>
#include <vector>

#include "cli/json.hpp"
#include "common/foagdd_cpu.hpp"
#include "tests/support/test_data.hpp"
#include "tests/support/tool_run.hpp"

using cascade::cli::Json;
using cascade::cli::parse_json;
using namespace cascade::test;

namespace {

const std::string kSamples = "/usr/share/doc/opencv-doc/examples/data/";

ToolResult keypoints(const std::vector<std::string>& args) { return run_tool(CASCADE_KEYPOINTS_EXE, args); }

// dir/scene.png: a 200x150 colour region of building.jpg; its grey version (OpenCV's BGR2GRAY) in `grey`.
bool write_scene(const TempDir& dir, cv::Mat& grey) {
    const auto path = system_file(kSamples + "building.jpg");
    if (!path) return false;
    const cv::Mat scene = cv::imread(*path, cv::IMREAD_COLOR)(cv::Rect(150, 100, 200, 150)).clone();
    cv::cvtColor(scene, grey, cv::COLOR_BGR2GRAY);
    return cv::imwrite(dir / "scene.png", scene);
}

void check_points(const Json& report, const std::vector<cascade::Keypoint>& expected) {
    const auto& points = report.at("detections").items;
    REQUIRE(points.size() == expected.size());
    for (std::size_t i = 0; i < points.size(); ++i) {
        CHECK(points[i].at("x").integer() == expected[i].x);
        CHECK(points[i].at("y").integer() == expected[i].y);
        CHECK(points[i].at("w").integer() == 1);
        CHECK(points[i].at("score").number == doctest::Approx(expected[i].measure).epsilon(1e-7));
    }
}

}  // namespace

TEST_CASE("cascade-keypoints reports the CPU reference's corners as JSON and CSV, with annotated pictures") {
    TempDir dir;
    cv::Mat grey;
    if (!write_scene(dir, grey)) return;
    const auto expected = cascade::foagdd_keypoints({grey.data, grey.cols, grey.rows, static_cast<int>(grey.step)});
    REQUIRE(expected.size() > 10);
    const ToolResult r = keypoints({"--output", dir / "p.json", "--annotate", dir / "marked", "-q", dir / "scene.png"});
    REQUIRE(r.code == 0);
    const Json report = parse_json(read_text(dir / "p.json"));
    CHECK(report.at("detector").text == "foagdd");
    check_points(report, expected);
    CHECK(std::filesystem::exists(dir / "marked/scene.png"));
    const ToolResult csv = keypoints({"--format", "csv", "-q", dir / "scene.png"});
    REQUIRE(csv.code == 0);
    CHECK(std::count(csv.out.begin(), csv.out.end(), '\n') == static_cast<long>(expected.size()) + 1);
    // a higher threshold keeps a subset
    const ToolResult high = keypoints({"--threshold", "1e10", "-q", dir / "scene.png"});
    REQUIRE(high.code == 0);
    CHECK(parse_json(high.out).at("detections").items.size() < expected.size());
}

TEST_CASE("cascade-keypoints reads folders, lists and video frames") {
    const auto video = system_file(kSamples + "vtest.avi");
    TempDir dir;
    cv::Mat grey;
    if (!video || !write_scene(dir, grey)) return;
    write_text(dir / "list.txt", dir / "scene.png\n");
    const ToolResult r = keypoints({"--max-frames", "1", "-q", dir.path.string(), "@" + dir / "list.txt", *video});
    REQUIRE(r.code == 0);
    const Json report = parse_json(r.out);
    CHECK(report.at("files").items.size() == 3);
    CHECK(report.at("frames").integer() == 3);
    int video_points = 0;
    for (const Json& p : report.at("detections").items) video_points += p.at("file").text == *video;
    CHECK(video_points > 10);
}

TEST_CASE("cascade-keypoints --backend gpu gives the CPU's corners, or says why it cannot run") {
    TempDir dir;
    cv::Mat grey;
    if (!write_scene(dir, grey)) return;
    const ToolResult cpu = keypoints({"-q", dir / "scene.png"});
    const ToolResult gpu = keypoints({"-q", "--backend", "gpu", dir / "scene.png"});
    REQUIRE(cpu.code == 0);
    if (gpu.code != 0) {
#ifdef CASCADE_KEYPOINTS_HAS_GPU
        check_error(gpu, 1, "cascade-keypoints", "--backend gpu");
        MESSAGE("SKIP: no CUDA device: --backend gpu refused as it should be");
#else
        check_error(gpu, 2, "cascade-keypoints", "--backend");
#endif
        return;
    }
    const Json c = parse_json(cpu.out), g = parse_json(gpu.out);
    REQUIRE(g.at("detections").items.size() == c.at("detections").items.size());
    for (std::size_t i = 0; i < c.at("detections").items.size(); ++i)
        for (const char* key : {"x", "y", "score"})
            CHECK(g.at("detections").items[i].at(key).number == c.at("detections").items[i].at(key).number);
}

TEST_CASE("cascade-keypoints: bad options and inputs are one-line errors and leave nothing behind") {
    TempDir dir;
    cv::Mat grey;
    if (!write_scene(dir, grey)) return;
    const std::string scene = dir / "scene.png";
    check_error(keypoints({"--threshold", "-1", scene}), 2, "cascade-keypoints", "--threshold");
    check_error(keypoints({"--threshold", "abc", scene}), 2, "cascade-keypoints", "--threshold");
    check_error(keypoints({"--backend", "tpu", scene}), 2, "cascade-keypoints", "--backend");
    check_error(keypoints({"--threads", "-2", scene}), 2, "cascade-keypoints", "--threads");
    check_error(keypoints({"--bogus", scene}), 2, "cascade-keypoints", "--bogus");
    check_error(keypoints({"--output", dir / "p.json", dir / "none.png"}), 1, "cascade-keypoints", dir / "none.png");
    cv::imwrite(dir / "small.png", grey(cv::Rect(0, 0, 15, 40)));
    check_error(keypoints({"--output", dir / "p.json", scene, dir / "small.png"}), 1, "cascade-keypoints",
                dir / "small.png");
    write_text(dir / "broken.png", "not a picture");
    check_error(keypoints({"--output", dir / "p.json", "--annotate", dir / "marked", scene, dir / "broken.png"}), 1,
                "cascade-keypoints", dir / "broken.png");
    CHECK(!std::filesystem::exists(dir / "p.json"));
    CHECK(!std::filesystem::exists(dir / "marked"));
    check_error(keypoints({"--output", scene, scene}), 2, "cascade-keypoints", "--output");
    const ToolResult help = keypoints({"--help"});
    CHECK(help.code == 0);
    CHECK(help.out.find("--backend") != std::string::npos);
}
