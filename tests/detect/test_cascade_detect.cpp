// cascade-detect end to end: runs the built binary as a subprocess on real data (OpenCV's LBP frontal-face
// cascade, messi5.jpg, vtest.avi from opencv-data / opencv-doc) and checks its outputs, its exit codes, its
// one-line errors and that a failed run leaves no file behind. Skips with a message when the files are absent.
#include <doctest/doctest.h>

#include <algorithm>

#include <filesystem>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/objdetect.hpp>
#include <opencv2/videoio.hpp>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "cli/json.hpp"
#include "tests/support/scratch_files.hpp"
#include "tests/support/test_data.hpp"
#include "tests/support/tool_run.hpp"

namespace fs = std::filesystem;
using cascade::cli::Json;

namespace {

const std::string kFaceModel = "/usr/share/opencv4/lbpcascades/lbpcascade_frontalface.xml";
const std::string kSamples = "/usr/share/doc/opencv-doc/examples/data/";

// ---- Running the tool ----

using cascade::test::files_under;
using cascade::test::read_text;
using cascade::test::TempDir;
using cascade::test::write_text;
using Result = cascade::test::ToolResult;

Json read_json(const std::string& text) { return cascade::cli::parse_json(text); }

Result run_tool(const std::vector<std::string>& args) { return cascade::test::run_tool(CASCADE_DETECT_EXE, args); }

std::string joined(const std::vector<std::string>& lines) {
    std::string out;
    for (const auto& l : lines) out += l + "\n";
    return out;
}

// The Debian sample files every test here needs; false (with a skip message) when one is missing.
bool have_samples() {
    return cascade::test::system_file(kFaceModel) && cascade::test::system_file(kSamples + "messi5.jpg");
}

struct Box {
    std::string file;
    int frame, x, y, w, h;
    double score;
};

std::vector<Box> boxes_of(const Json& report) {
    std::vector<Box> out;
    for (const Json& d : report.at("detections").items)
        out.push_back({d.at("file").text, d.at("frame").integer(), d.at("x").integer(), d.at("y").integer(),
                       d.at("w").integer(), d.at("h").integer(), d.at("score").number});
    return out;
}

// The report's "files": every input the run read, in order.
std::vector<std::string> files_of(const Json& report) {
    std::vector<std::string> out;
    for (const Json& f : report.at("files").items) out.push_back(f.text);
    return out;
}

// Checks the one-line error contract: exit code, a single stderr line that names `subject`, nothing on stdout.
void check_error(const Result& r, int code, const std::string& subject) {
    cascade::test::check_error(r, code, "cascade-detect", subject);
}

}  // namespace

TEST_CASE("cascade-detect --help describes every option with its default and gives examples") {
    const Result r = run_tool({"--help"});
    CHECK(r.code == 0);
    for (const char* text : {"Usage: cascade-detect", "Examples:", "--model", "--backend", "--scale-factor",
                             "--stride", "--min-size", "--max-size", "--group", "--min-neighbors", "--nms-iou",
                             "--threads", "--output", "--format", "--annotate", "--annotate-video", "--list",
                             "--max-frames", "--every", "--progress", "--quiet", "(default: 1.1)", "(default: 3)",
                             "--first-scale", "--gpu-pyramid", "--compaction", "--devices", "--frames-in-flight"})
        CHECK_MESSAGE(r.out.find(text) != std::string::npos, text);
}

TEST_CASE("cascade-detect finds faces in messi5.jpg, as valid JSON, inside the image") {
    if (!have_samples()) return;
    const std::string image = kSamples + "messi5.jpg";
    const cv::Mat picture = cv::imread(image);
    REQUIRE(!picture.empty());
    const TempDir dir;

    const Result r = run_tool({"--model", kFaceModel, "--output", dir / "faces.json", image});
    INFO("stderr: " << r.err);
    REQUIRE(r.code == 0);
    CHECK(r.out.empty());
    REQUIRE(r.err_lines.size() == 1);  // the summary
    CHECK(r.err_lines[0].find("1 frames, ") == 0);
    CHECK(r.err_lines[0].find(" detections, ") != std::string::npos);
    CHECK(r.err_lines[0].find(" fps") != std::string::npos);
    CHECK(files_under(dir.path) == std::vector<std::string>{dir / "faces.json"});

    const Json report = read_json(read_text(dir / "faces.json"));
    CHECK(report.at("model").text == kFaceModel);
    CHECK(report.at("backend").text == "cpu");
    const Json& parameters = report.at("parameters");
    CHECK(parameters.at("scale_factor").number == doctest::Approx(1.1));
    CHECK(parameters.at("min_neighbors").integer() == 3);
    CHECK(parameters.at("group").text == "opencv");
    CHECK(report.at("frames").integer() == 1);
    CHECK(files_of(report) == std::vector<std::string>{image});
    CHECK(report.at("seconds").number >= 0.0);
    const std::vector<Box> boxes = boxes_of(report);
    CHECK(boxes.size() >= 1);
    for (const Box& b : boxes) {
        CHECK(b.file == image);
        CHECK(b.frame == 0);
        CHECK(b.x >= 0);
        CHECK(b.y >= 0);
        CHECK(b.w >= 24);
        CHECK(b.h >= 24);
        CHECK(b.x + b.w <= picture.cols);
        CHECK(b.y + b.h <= picture.rows);
    }

    // Default: the same JSON on stdout; --quiet: nothing on stderr.
    const Result quiet = run_tool({"--model", kFaceModel, "--quiet", image});
    CHECK(quiet.code == 0);
    CHECK(quiet.err.empty());
    CHECK(boxes_of(read_json(quiet.out)).size() == boxes.size());
}

TEST_CASE("cascade-detect on messi5.jpg gives OpenCV's detectMultiScale rectangles") {
    if (!have_samples()) return;
    const std::string image = kSamples + "messi5.jpg";
    cv::CascadeClassifier opencv(kFaceModel);
    REQUIRE(!opencv.empty());
    cv::Mat gray;
    cv::cvtColor(cv::imread(image), gray, cv::COLOR_BGR2GRAY);
    std::vector<cv::Rect> expected;
    opencv.detectMultiScale(gray, expected, 1.1, 3);

    const Result r = run_tool({"--model", kFaceModel, "--quiet", image});
    REQUIRE(r.code == 0);
    std::multiset<std::tuple<int, int, int, int>> ours, theirs;
    for (const Box& b : boxes_of(read_json(r.out))) ours.insert({b.x, b.y, b.w, b.h});
    for (const cv::Rect& e : expected) theirs.insert({e.x, e.y, e.width, e.height});
    CHECK(ours == theirs);
}

TEST_CASE("cascade-detect CSV has the header and one row per JSON detection") {
    if (!have_samples()) return;
    const std::string image = kSamples + "messi5.jpg";
    const TempDir dir;
    REQUIRE(run_tool({"--model", kFaceModel, "-q", "--output", dir / "faces.json", image}).code == 0);
    REQUIRE(run_tool({"--model", kFaceModel, "-q", "--output", dir / "faces.csv", image}).code == 0);
    // --format csv to stdout gives the same text.
    const Result to_stdout = run_tool({"--model", kFaceModel, "-q", "--format", "csv", image});
    REQUIRE(to_stdout.code == 0);
    const std::string csv = read_text(dir / "faces.csv");
    CHECK(to_stdout.out == csv);

    const std::vector<Box> boxes = boxes_of(read_json(read_text(dir / "faces.json")));
    std::istringstream lines(csv);
    std::string line;
    REQUIRE(std::getline(lines, line));
    CHECK(line == "file,frame,x,y,w,h,score");
    std::size_t rows = 0;
    while (std::getline(lines, line)) {
        REQUIRE(rows < boxes.size());
        const Box& b = boxes[rows++];
        std::ostringstream expected;
        expected << b.file << ",0," << b.x << ',' << b.y << ',' << b.w << ',' << b.h << ',';
        CHECK(line.rfind(expected.str(), 0) == 0);
    }
    CHECK(rows == boxes.size());
}

TEST_CASE("cascade-detect on a folder reads its images in name order, skipping other files") {
    if (!have_samples()) return;
    const TempDir dir;
    const fs::path photos = dir.path / "photos";
    fs::create_directories(photos / "sub");
    // Three images (links to one real photo, so each has faces), a text file and a nested folder to skip.
    for (const char* name : {"c.jpg", "a.jpg", "b.JPG"}) fs::create_symlink(kSamples + "messi5.jpg", photos / name);
    fs::create_symlink(kSamples + "messi5.jpg", photos / "sub" / "d.jpg");
    write_text((photos / "notes.txt").string(), "not an image\n");

    const Result r = run_tool({"--model", kFaceModel, "--output", dir / "out.json", "--annotate",
                               dir / "annotated", photos.string()});
    INFO("stderr: " << r.err);
    REQUIRE(r.code == 0);
    const Json report = read_json(read_text(dir / "out.json"));
    CHECK(report.at("frames").integer() == 3);
    std::vector<std::string> files;
    for (const Box& b : boxes_of(report))
        if (files.empty() || files.back() != b.file) files.push_back(b.file);
    CHECK(files == std::vector<std::string>{(photos / "a.jpg").string(), (photos / "b.JPG").string(),
                                            (photos / "c.jpg").string()});
    CHECK(files_of(report) == files);
    CHECK(files_under(dir.path / "annotated") ==
          std::vector<std::string>{dir / "annotated/a.png", dir / "annotated/b.png", dir / "annotated/c.png"});
}

TEST_CASE("cascade-detect reads list files relative to their folder, with comments") {
    if (!have_samples()) return;
    const TempDir dir;
    fs::create_directories(dir.path / "lists" / "pics");
    fs::create_symlink(kSamples + "messi5.jpg", dir.path / "lists" / "pics" / "one.jpg");
    write_text(dir / "lists/faces.txt",
               "# faces to check\n\npics/one.jpg\n   # indented comment\n" + kSamples + "messi5.jpg  \n");
    const Result at = run_tool({"--model", kFaceModel, "-q", "@" + (dir / "lists/faces.txt")});
    const Result list = run_tool({"--model", kFaceModel, "-q", "--list", dir / "lists/faces.txt"});
    INFO("stderr: " << at.err);
    REQUIRE(at.code == 0);
    REQUIRE(list.code == 0);
    const Json report = read_json(at.out);
    CHECK(report.at("frames").integer() == 2);
    std::set<std::string> files;
    for (const Box& b : boxes_of(report)) files.insert(b.file);
    CHECK(files == std::set<std::string>{dir / "lists/pics/one.jpg", kSamples + "messi5.jpg"});
    CHECK(boxes_of(read_json(list.out)).size() == boxes_of(report).size());
}

TEST_CASE("cascade-detect writes an annotated copy of each image as a readable PNG") {
    if (!have_samples()) return;
    const std::string image = kSamples + "messi5.jpg";
    const TempDir dir;
    const Result r = run_tool({"--model", kFaceModel, "-q", "--annotate", dir / "out", image});
    REQUIRE(r.code == 0);
    CHECK(files_under(dir.path / "out") == std::vector<std::string>{dir / "out/messi5.png"});
    const cv::Mat annotated = cv::imread(dir / "out/messi5.png");
    const cv::Mat original = cv::imread(image);
    REQUIRE(!annotated.empty());
    CHECK(annotated.size() == original.size());
    CHECK(cv::norm(annotated, original, cv::NORM_INF) > 0);  // boxes were drawn
}

TEST_CASE("cascade-detect on a video: --max-frames, --every, per-frame PNGs and an annotated AVI") {
    if (!have_samples() || !cascade::test::system_file(kSamples + "vtest.avi")) return;
    const std::string video = kSamples + "vtest.avi";
    const TempDir dir;

    const Result r = run_tool({"--model", kFaceModel, "--max-frames", "5", "--output", dir / "v.json", "--annotate",
                               dir / "frames", "--annotate-video", dir / "v.avi", video});
    INFO("stderr: " << r.err);
    REQUIRE(r.code == 0);
    CHECK(r.err_lines.size() == 1);  // no bar when stderr is not a terminal; the summary
    const Json report = read_json(read_text(dir / "v.json"));
    CHECK(report.at("frames").integer() == 5);
    CHECK(files_of(report) == std::vector<std::string>{video});  // once, not once per frame
    for (const Box& b : boxes_of(report)) {
        CHECK(b.file == video);
        CHECK(b.frame >= 0);
        CHECK(b.frame <= 4);
    }
    std::vector<std::string> expected;
    for (int i = 0; i < 5; ++i) expected.push_back(dir / ("frames/vtest_00000" + std::to_string(i) + ".png"));
    CHECK(files_under(dir.path / "frames") == expected);
    const cv::Mat first = cv::imread(expected[0]);
    CHECK(first.cols == 768);
    CHECK(first.rows == 576);

    cv::VideoCapture annotated(dir / "v.avi");
    REQUIRE(annotated.isOpened());
    int frames = 0;
    for (cv::Mat frame; annotated.read(frame) && !frame.empty(); ++frames) CHECK(frame.size() == cv::Size(768, 576));
    CHECK(frames == 5);

    // --every 3 --max-frames 3: frames 0, 3, 6; with --progress the bar is drawn even though stderr is a file.
    const Result every = run_tool({"--model", kFaceModel, "--every", "3", "--max-frames", "3", "--progress",
                                   "--annotate", dir / "every", video});
    REQUIRE(every.code == 0);
    CHECK(every.err.find("3/3 100%") != std::string::npos);
    CHECK(every.err.find(" fps ETA ") != std::string::npos);
    CHECK(read_json(every.out).at("frames").integer() == 3);
    CHECK(files_under(dir.path / "every") == std::vector<std::string>{dir / "every/vtest_000000.png",
                                                                       dir / "every/vtest_000003.png",
                                                                       dir / "every/vtest_000006.png"});
}

TEST_CASE("cascade-detect reports bad input files in one line, exit code 1, and writes nothing") {
    if (!have_samples()) return;
    const std::string good = kSamples + "messi5.jpg";
    const TempDir inputs;
    write_text(inputs / "text.jpg", "this is not a JPEG\n");
    write_text(inputs / "text.avi", "this is not a video\n");
    write_text(inputs / "corrupt.xml", "not xml at all <<<");
    write_text(inputs / "haar.xml",
               "<?xml version=\"1.0\"?>\n<opencv_storage>\n<cascade>\n  <stageType>BOOST</stageType>\n"
               "  <featureType>HAAR</featureType>\n  <height>24</height>\n  <width>24</width>\n</cascade>\n"
               "</opencv_storage>\n");
    write_text(inputs / "other.xml", "<?xml version=\"1.0\"?>\n<svg width=\"10\" height=\"10\"></svg>\n");
    REQUIRE(cv::imwrite(inputs / "small.png", cv::Mat(20, 20, CV_8UC1, cv::Scalar(128))));
    fs::create_directories(inputs.path / "empty");
    write_text(inputs / "empty.txt", "# only a comment\n\n");
    fs::create_directories(inputs.path / "mixed");
    fs::create_symlink(good, inputs.path / "mixed" / "a.jpg");
    REQUIRE(cv::imwrite(inputs / "mixed/b.png", cv::Mat(20, 20, CV_8UC1, cv::Scalar(128))));
    fs::create_directories(inputs.path / "broken");
    fs::create_symlink(good, inputs.path / "broken" / "a.jpg");
    write_text(inputs / "broken/b.jpg", "this is not a JPEG\n");
    cascade::test::write_png_declaring(inputs / "huge.png", 30000, 30000);  // 7 GB and std::bad_alloc once

    struct Case {
        const char* what;
        std::vector<std::string> args;
        std::string subject;
    };
    const std::vector<Case> cases = {
        {"missing image", {"--model", kFaceModel, inputs / "missing.jpg"}, inputs / "missing.jpg"},
        {"text in a .jpg", {"--model", kFaceModel, inputs / "text.jpg"}, inputs / "text.jpg"},
        {"text in a .avi", {"--model", kFaceModel, inputs / "text.avi"}, inputs / "text.avi"},
        {"missing model", {"--model", inputs / "missing.xml", good}, inputs / "missing.xml"},
        {"model that is not XML", {"--model", inputs / "corrupt.xml", good}, inputs / "corrupt.xml"},
        {"Haar cascade", {"--model", inputs / "haar.xml", good}, inputs / "haar.xml"},
        {"XML of another kind", {"--model", inputs / "other.xml", good}, inputs / "other.xml"},
        {"image smaller than the window", {"--model", kFaceModel, inputs / "small.png"},
         inputs / "small.png: image 20x20 is smaller than the model window 24x24"},
        {"small image in a folder", {"--model", kFaceModel, inputs / "mixed"},
         inputs / "mixed/b.png: image 20x20 is smaller than the model window 24x24"},
        {"corrupt image in a folder", {"--model", kFaceModel, inputs / "broken"}, inputs / "broken/b.jpg"},
        {"empty folder", {"--model", kFaceModel, inputs / "empty"}, inputs / "empty"},
        {"PNG declaring 30000x30000", {"--model", kFaceModel, inputs / "huge.png"},
         inputs / "huge.png: declares 30000x30000 pixels, more than the limit of 100000000"},
        {"empty list file", {"--model", kFaceModel, "@" + (inputs / "empty.txt")}, inputs / "empty.txt"},
        {"missing list file", {"--model", kFaceModel, "--list", inputs / "nolist.txt"}, inputs / "nolist.txt"},
    };
    for (const Case& c : cases) {
        CAPTURE(c.what);
        const TempDir out;
        std::vector<std::string> args = c.args;
        for (const std::string& extra : std::vector<std::string>{"--output", out / "result.json", "--annotate",
                                                                  out / "annotated"})
            args.push_back(extra);
        const Result r = run_tool(args);
        check_error(r, 1, c.subject);
        INFO("left behind: " << joined(files_under(out.path)));
        CHECK(files_under(out.path).empty());
    }
}

TEST_CASE("cascade-detect reports bad options in one line, exit code 2, and writes nothing") {
    if (!have_samples()) return;
    const std::string good = kSamples + "messi5.jpg";
    struct Case {
        std::vector<std::string> args;
        std::string subject;
    };
    const std::vector<Case> cases = {
        {{"--scale-factor", "1"}, "--scale-factor"},
        {{"--scale-factor", "0.9"}, "--scale-factor"},
        {{"--scale-factor", "4.5"}, "--scale-factor"},
        {{"--scale-factor", "abc"}, "--scale-factor"},
        {{"--scale-factor", "1.0000001"},
         "--scale-factor: 1.0000001 is out of range (1.01..4: a step closer to 1 builds too many pyramid levels)"},
        {{"--threads", "100000"}, "--threads: 100000 is out of range (0 for all cores, or 1..4096)"},
        {{"--stride", "0"}, "--stride"},
        {{"--stride=-2"}, "--stride"},
        {{"--stride", "65"}, "--stride"},
        {{"--stride", "two"}, "--stride"},
        {{"--min-size", "60", "--max-size", "40x80"}, "--min-size"},
        {{"--min-size", "0x10"}, "--min-size"},
        {{"--max-size", "20"}, "--max-size: 20x20 is smaller than the model window 24x24"},
        {{"--min-neighbors", "-1"}, "--min-neighbors"},
        {{"--group", "nms", "--min-neighbors", "2"}, "--min-neighbors"},
        {{"--group", "mean"}, "--group"},
        {{"--nms-iou", "1.5", "--group", "nms"}, "--nms-iou"},
#ifdef CASCADE_DETECT_HAS_GPU
        {{"--backend", "gpu", "--compaction", "bogus"}, "--compaction: unknown compaction strategy 'bogus'"},
        {{"--backend", "gpu", "--gpu-pyramid", "bilinear"}, "--gpu-pyramid: unknown pyramid 'bilinear'"},
        {{"--backend", "gpu", "--gpu-pyramid", "texture", "--first-scale", "0.5"}, "--gpu-pyramid"},
        {{"--backend", "gpu", "--devices", ""}, "--devices: empty device list"},
        {{"--backend", "gpu", "--devices", "0,x"}, "--devices: 'x' is not an integer"},
        {{"--backend", "gpu", "--devices", "0,,1"}, "--devices: '0,,1' has an empty item"},
        {{"--backend", "gpu", "--devices", "-1"}, "--devices: device index -1 is negative"},
        {{"--backend", "gpu", "--frames-in-flight", "0"}, "--frames-in-flight: 0 is out of range (1..64)"},
        {{"--backend", "gpu", "--frames-in-flight", "65"}, "--frames-in-flight: 65 is out of range (1..64)"},
#else
        {{"--backend", "gpu"}, "--backend: backend gpu is not available in this build"},
#endif
        {{"--compaction", "hybrid"}, "--compaction: applies to --backend gpu only"},
        {{"--gpu-pyramid", "exact"}, "--gpu-pyramid: applies to --backend gpu only"},
        {{"--devices", "0"}, "--devices: applies to --backend gpu only"},
        {{"--frames-in-flight", "2"}, "--frames-in-flight: applies to --backend gpu only"},
        {{"--backend", "tpu"}, "--backend"},
        {{"--format", "xml"}, "--format"},
        {{"--output", "OUT/result.txt"}, "--output"},
        {{"--output", "OUT/no/such/folder/result.json"}, "--output"},
        {{"--format", "csv", "--output", "OUT/result.json"}, "--format"},
        {{"--threads", "-1"}, "--threads"},
        {{"--every", "0"}, "--every"},
        {{"--max-frames", "-5"}, "--max-frames"},
        {{"--first-scale", "0.05"}, "--first-scale"},
        {{"--first-scale", "1.5"}, "--first-scale"},
        {{"--annotate-video", "OUT/out.avi"}, "--annotate-video"},
        {{"--annotate-video", "OUT/out.mp4"}, "--annotate-video"},
        {{"--no-such-option"}, "--no-such-option"},
    };
    for (const Case& c : cases) {
        const TempDir out;
        std::vector<std::string> args = {"--model", kFaceModel};
        for (std::string a : c.args) {
            if (a.rfind("OUT/", 0) == 0) a = out / a.substr(4);
            args.push_back(a);
        }
        bool has_output = false;
        for (const std::string& a : args) has_output = has_output || a == "--output";
        if (!has_output) {
            args.push_back("--output");
            args.push_back(out / "result.json");
        }
        args.push_back(good);
        CAPTURE(joined(args));
        check_error(run_tool(args), 2, c.subject);
        CHECK(files_under(out.path).empty());
    }

#ifdef CASCADE_DETECT_HAS_GPU
    // On a machine without a CUDA device (no NVIDIA device node) the GPU backend is an input problem (exit 1).
    if (!fs::exists("/dev/nvidiactl"))
        check_error(run_tool({"--backend", "gpu", good}), 1, "--backend gpu: no CUDA device is available");
#endif
    // Without an input (without --model the embedded default model runs: tests/detect/test_default_model.cpp).
    check_error(run_tool({"--model", kFaceModel}), 2, "INPUT");
}

TEST_CASE("cascade-detect refuses an --output that is one of its inputs: an image, a list file, the model") {
    if (!have_samples()) return;
    const TempDir dir;
    const std::string photo = read_text(kSamples + "messi5.jpg"), model = read_text(kFaceModel);
    write_text(dir / "photo.jpg", photo);
    write_text(dir / "list.csv", "photo.jpg\n");
    write_text(dir / "model.csv", model);
    const std::string ok_model = kFaceModel, image = dir / "photo.jpg", list = dir / "list.csv";
    const std::vector<std::vector<std::string>> cases = {
        {"--model", ok_model, "--format", "json", "--output", image, image},
        {"--model", ok_model, "--output", list, "--list", list},
        {"--model", dir / "model.csv", "--output", dir / "model.csv", image},
    };
    for (const std::vector<std::string>& args : cases) {
        CAPTURE(joined(args));
        const std::string& output = args[std::find(args.begin(), args.end(), "--output") - args.begin() + 1];
        check_error(run_tool(args), 2, "--output: '" + output + "' is an input; it would be overwritten");
    }
    CHECK(read_text(dir / "photo.jpg") == photo);
    CHECK(read_text(dir / "list.csv") == "photo.jpg\n");
    CHECK(read_text(dir / "model.csv") == model);
}

TEST_CASE("cascade-detect prints a list file's names without their terminal escape sequences") {
    if (!have_samples()) return;
    const TempDir dir;
    write_text(dir / "list.txt", "evil\x1b[2J\x1b]0;owned\x07.jpg\n");
    const Result r = run_tool({"--model", kFaceModel, "--list", dir / "list.txt"});
    check_error(r, 1, "evil\\x1b[2J\\x1b]0;owned\\x07.jpg: no such file");
    CHECK(r.err.find('\x1b') == std::string::npos);
}

TEST_CASE("cascade-detect: a video cut to a tenth of its length is read to its end, with a warning") {
    if (!have_samples() || !cascade::test::system_file(kSamples + "vtest.avi")) return;
    const TempDir dir;
    const std::string bytes = read_text(kSamples + "vtest.avi");
    write_text(dir / "cut.avi", bytes.substr(0, bytes.size() / 10));
    // Large faces only: the test is about reading the video, and each of its frames is still decoded and scanned.
    const Result r = run_tool({"--model", kFaceModel, "--scale-factor", "2", "--min-size", "96", "--output",
                               dir / "out.json", dir / "cut.avi"});
    INFO("stderr: " << r.err);
    CHECK(r.code == 0);
    const long frames = read_json(read_text(dir / "out.json")).at("frames").integer();
    CHECK(frames > 0);
    CHECK(frames < 795);
    CHECK(r.err.find("cascade-detect: warning: " + (dir / "cut.avi") + ": the video ends after " +
                     std::to_string(frames) + " of the 795 frames its header declares (truncated?)") !=
          std::string::npos);
}

TEST_CASE("cascade-detect: a truncated JPEG is a warning, not a failure") {
    if (!have_samples()) return;
    const TempDir dir;
    const std::string bytes = read_text(kSamples + "messi5.jpg");
    write_text(dir / "cut.jpg", bytes.substr(0, bytes.size() / 2));
    const Result r = run_tool({"--model", kFaceModel, "--output", dir / "out.json", dir / "cut.jpg"});
    INFO("stderr: " << r.err);
    CHECK(r.code == 0);
    REQUIRE(r.err_lines.size() == 2);
    CHECK(r.err_lines[0].rfind("cascade-detect: warning: " + (dir / "cut.jpg") + ": ", 0) == 0);
    CHECK(r.err_lines[1].find("1 frames, ") == 0);
    CHECK(read_json(read_text(dir / "out.json")).at("frames").integer() == 1);
}

TEST_CASE("cascade-detect grouping modes: none gives the raw windows, nms, meanshift and opencv fewer") {
    if (!have_samples()) return;
    const std::string image = kSamples + "messi5.jpg";
    const auto count = [&](std::vector<std::string> args) {
        args.insert(args.begin(), {"--model", kFaceModel, "-q"});
        args.push_back(image);
        const Result r = run_tool(args);
        REQUIRE(r.code == 0);
        return boxes_of(read_json(r.out)).size();
    };
    const std::size_t raw = count({"--group", "none"});
    CHECK(count({"--min-neighbors", "0"}) == raw);
    CHECK(count({"--group", "nms", "--nms-iou", "0.3"}) < raw);
    const std::size_t modes = count({"--group", "meanshift"});
    CHECK(modes > 0);
    CHECK(modes < raw);
    CHECK(count({}) < raw);
    CHECK(count({"--threads", "1"}) == count({"--threads", "2"}));
    CHECK(count({"--stride", "1", "--group", "none"}) > raw);
}
