// cascade-detect --skip-bad on real files: a folder, a list and a video with bad inputs among good ones (too
// small for the window, not an image, missing) gives the good ones' detections, each bad one on stderr and in
// the JSON's "skipped" with its reason, in input order; a run that can read nothing still fails in one line.
// Skips with a message when opencv-data / opencv-doc are absent.
#include <doctest/doctest.h>

#include <filesystem>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/videoio.hpp>
#include <string>
#include <utility>
#include <vector>

#include "cli/json.hpp"
#include "tests/support/test_data.hpp"
#include "tests/support/tool_run.hpp"

namespace fs = std::filesystem;
using cascade::cli::Json;
using namespace cascade::test;

namespace {

const std::string kFaceModel = "/usr/share/opencv4/lbpcascades/lbpcascade_frontalface.xml";
const std::string kPhoto = "/usr/share/doc/opencv-doc/examples/data/messi5.jpg";

ToolResult detect(const std::vector<std::string>& args) { return run_tool(CASCADE_DETECT_EXE, args); }

std::vector<std::pair<std::string, std::string>> skipped_of(const Json& report) {
    std::vector<std::pair<std::string, std::string>> out;
    for (const Json& s : report.at("skipped").items) out.emplace_back(s.at("file").text, s.at("reason").text);
    return out;
}

std::vector<std::string> files_of(const Json& report) {
    std::vector<std::string> out;
    for (const Json& f : report.at("files").items) out.push_back(f.text);
    return out;
}

// A 16x16 MJPG video of three grey frames: smaller than the 24x24 face window.
void write_tiny_video(const std::string& path) {
    cv::VideoWriter writer(path, cv::VideoWriter::fourcc('M', 'J', 'P', 'G'), 10.0, cv::Size(16, 16), false);
    REQUIRE(writer.isOpened());
    for (int i = 0; i < 3; ++i) writer.write(cv::Mat(16, 16, CV_8UC1, cv::Scalar(40 * i)));
}

}  // namespace

TEST_CASE("cascade-detect --skip-bad reports each bad input with its reason and detects on the rest") {
    if (!system_file(kFaceModel) || !system_file(kPhoto)) return;
    const TempDir dir;
    fs::create_directories(dir.path / "mixed");
    fs::create_symlink(kPhoto, dir.path / "mixed" / "a.jpg");
    REQUIRE(cv::imwrite(dir / "mixed/b.png", cv::Mat(20, 20, CV_8UC1, cv::Scalar(128))));
    write_text(dir / "mixed/c.jpg", "this is not a JPEG\n");
    write_text(dir / "more.txt", "gone.jpg\n");
    write_tiny_video(dir / "tiny.avi");

    const ToolResult alone = detect({"-q", "--model", kFaceModel, dir / "mixed/a.jpg"});
    REQUIRE(alone.code == 0);
    const Json plain = cascade::cli::parse_json(alone.out);
    CHECK(plain.at("skipped").items.empty());  // listed, and empty, in every report
    REQUIRE(!plain.at("detections").items.empty());

    const ToolResult r = detect({"--model", kFaceModel, "--skip-bad", "--output", dir / "out.json", "--annotate",
                                 dir / "annotated", dir / "mixed", "@" + (dir / "more.txt"), dir / "tiny.avi"});
    INFO("stderr: " << r.err);
    REQUIRE(r.code == 0);
    const std::vector<std::pair<std::string, std::string>> expected = {
        {dir / "mixed/b.png", "image 20x20 is smaller than the model window 24x24"},
        {dir / "mixed/c.jpg", "cannot read the image (corrupt, or not an image)"},
        {dir / "gone.jpg", "no such file or folder (listed in " + (dir / "more.txt") + " line 1)"},
        {dir / "tiny.avi", "video frames 16x16 are smaller than the model window 24x24"}};
    const Json report = cascade::cli::parse_json(read_text(dir / "out.json"));
    CHECK(skipped_of(report) == expected);
    CHECK(files_of(report) == std::vector<std::string>{dir / "mixed/a.jpg"});
    CHECK(report.at("frames").integer() == 1);
    // The good image's detections are those of a run on it alone.
    CHECK(report.at("detections").items.size() == plain.at("detections").items.size());
    CHECK(files_under(dir.path / "annotated") == std::vector<std::string>{dir / "annotated/a.png"});
    // One warning line per skipped input, then the summary that counts them.
    REQUIRE(r.err_lines.size() == expected.size() + 1);
    for (std::size_t i = 0; i < expected.size(); ++i)
        CHECK(r.err_lines[i] == "cascade-detect: warning: " + expected[i].first + ": skipped: " + expected[i].second);
    CHECK(r.err_lines.back().find("1 frames, ") == 0);
    CHECK(r.err_lines.back().find(", 4 skipped") != std::string::npos);

    // --quiet: nothing on stderr, the JSON still says what was skipped.
    const ToolResult quiet = detect({"-q", "--model", kFaceModel, "--skip-bad", dir / "mixed"});
    REQUIRE(quiet.code == 0);
    CHECK(quiet.err.empty());
    CHECK(skipped_of(cascade::cli::parse_json(quiet.out)).size() == 2);
}

TEST_CASE("cascade-detect --skip-bad fails in one line, writing nothing, when no input could be read") {
    if (!system_file(kFaceModel)) return;
    const TempDir dir;
    fs::create_directories(dir.path / "bad");
    REQUIRE(cv::imwrite(dir / "bad/b.png", cv::Mat(20, 20, CV_8UC1, cv::Scalar(128))));
    write_text(dir / "bad/c.jpg", "this is not a JPEG\n");
    const TempDir out;
    const ToolResult r = detect({"-q", "--model", kFaceModel, "--skip-bad", "--output", out / "r.json", "--annotate",
                                 out / "annotated", dir / "bad"});
    check_error(r, 1, "cascade-detect",
                (dir / "bad/b.png") + ": image 20x20 is smaller than the model window 24x24 (--skip-bad: none of "
                                      "the 2 inputs could be read)");
    CHECK(files_under(out.path).empty());
}
