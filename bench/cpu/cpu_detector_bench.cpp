// Times the CPU reference LBP detector and cv::CascadeClassifier::detectMultiScale on the same real frames,
// both on all cores, and checks on every frame that both return the same rectangles. Prints a markdown
// table (and JSON with --json FILE). A benchmark, not a test: results go to docs/benchmarks.md by hand.
#include <algorithm>
#include <boost/program_options.hpp>
#include <chrono>
#include <iomanip>
#include <iostream>
#include <optional>
#include <opencv2/core/ocl.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/objdetect.hpp>
#include <opencv2/videoio.hpp>
#include <sstream>
#include <thread>

#include "cli/json.hpp"
#include "cli/program_options.hpp"
#include "cli/tool_main.hpp"
#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "common/lbp_cpu_detector.hpp"
#include "common/model_io.hpp"
#include "common/postprocess.hpp"

namespace po = boost::program_options;

namespace {

struct Row {
    std::string resolution;
    double ours_ms = 0, opencv_ms = 0;
    std::size_t detections = 0;
    bool equal = true;
};

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

template <class F>
double time_ms(F&& f) {
    const auto start = std::chrono::steady_clock::now();
    f();
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

std::vector<cascade::Rect> sorted_rects(const std::vector<cv::Rect>& rects) {
    std::vector<cascade::Rect> out;
    for (const auto& r : rects) out.push_back({r.x, r.y, r.width, r.height});
    std::sort(out.begin(), out.end());
    return out;
}

struct Options {
    std::string model_path, video_path, json_path;
    int frames = 20, min_neighbors = 3;
    double scale_factor = 1.1;
};

std::optional<Options> parse_options(int argc, char** argv) {
    Options o;
    po::options_description options("cascade-bench-cpu: CPU reference detector vs OpenCV, same frames, all cores");
    options.add_options()("help,h", "this help")(
        "model", po::value(&o.model_path)->default_value("/usr/share/opencv4/lbpcascades/lbpcascade_frontalface.xml"),
        "OpenCV LBP cascade")(
        "video", po::value(&o.video_path)->default_value("/usr/share/doc/opencv-doc/examples/data/vtest.avi"),
        "frames to time (scaled to each resolution)")(
        "frames", po::value(&o.frames)->default_value(20), "frames per resolution")(
        "scale-factor", po::value(&o.scale_factor)->default_value(1.1), "pyramid scale factor")(
        "min-neighbors", po::value(&o.min_neighbors)->default_value(3), "grouping threshold")(
        "json", po::value(&o.json_path), "also write the results as JSON");
    po::variables_map vm;
    po::command_line_parser parser(argc, argv);
    parser.options(options);
    if (!cascade::cli::parse_options(parser, vm)) {
        std::cout << options << "\n";
        return std::nullopt;
    }
    return o;
}

// Up to `count` gray frames spread over the video (every eleventh).
std::vector<cv::Mat> read_frames(const std::string& path, int count) {
    cv::VideoCapture video(path);
    if (!video.isOpened()) throw cascade::InputError(path, "cannot open video");
    std::vector<cv::Mat> frames;
    for (cv::Mat frame; static_cast<int>(frames.size()) < count && video.read(frame);) {
        cv::Mat gray;
        cv::cvtColor(frame, gray, cv::COLOR_BGR2GRAY);
        frames.push_back(gray);
        for (int skip = 0; skip < 10; ++skip) video.grab();  // spread the frames over the video
    }
    if (frames.empty()) throw cascade::InputError(path, "no frames could be decoded");
    return frames;
}

// Both detectors on every frame scaled to `size`, the first frame a warm-up.
Row time_resolution(const cascade::LbpCascade& ours, cv::CascadeClassifier& opencv, const std::vector<cv::Mat>& source,
                    cv::Size size, const Options& o) {
    cascade::ScanParams params;
    params.pyramid.scale_factor = o.scale_factor;
    cascade::GroupingParams grouping;
    grouping.min_neighbors = o.min_neighbors;
    Row row;
    row.resolution = std::to_string(size.width) + "x" + std::to_string(size.height);
    std::vector<double> ours_ms, opencv_ms;
    for (std::size_t i = 0; i < source.size(); ++i) {
        cv::Mat frame;
        cv::resize(source[i], frame, size, 0, 0, cv::INTER_LINEAR);
        const cascade::GrayView view{frame.data, frame.cols, frame.rows, static_cast<int>(frame.step)};
        std::vector<cascade::Rect> grouped;
        const double t_ours = time_ms([&] {
            const auto raw = cascade::detect_windows(ours, view, params);
            grouped.clear();
            for (const auto& d : cascade::group_and_clip(raw, grouping, {frame.cols, frame.rows}, ours.window))
                grouped.push_back(d.rect);
        });
        std::vector<cv::Rect> theirs;
        const double t_opencv =
            time_ms([&] { opencv.detectMultiScale(frame, theirs, o.scale_factor, o.min_neighbors); });
        if (i == 0) continue;  // warm-up frame
        ours_ms.push_back(t_ours);
        opencv_ms.push_back(t_opencv);
        std::sort(grouped.begin(), grouped.end());
        row.equal = row.equal && grouped == sorted_rects(theirs);
        row.detections += grouped.size();
    }
    row.ours_ms = median(ours_ms);
    row.opencv_ms = median(opencv_ms);
    return row;
}

void print_table(const std::vector<Row>& rows, std::size_t frames) {
    std::cout << "| resolution | frames | ours (ms, median) | OpenCV (ms, median) | OpenCV / ours | detections | "
                 "same rectangles |\n|---|---|---|---|---|---|---|\n";
    for (const Row& r : rows)
        std::cout << "| " << r.resolution << " | " << frames << " | " << std::fixed << std::setprecision(2) << r.ours_ms
                  << " | " << r.opencv_ms << " | " << r.opencv_ms / r.ours_ms << " | " << r.detections << " | "
                  << (r.equal ? "yes" : "NO") << " |\n";
}

void write_json(const std::vector<Row>& rows, const Options& o) {
    std::ostringstream json;
    json << "{\"model\": " << cascade::cli::json_quoted(o.model_path)
         << ", \"threads\": " << std::thread::hardware_concurrency() << ", \"scale_factor\": " << o.scale_factor
         << ", \"rows\": [";
    for (std::size_t i = 0; i < rows.size(); ++i)
        json << (i ? ", " : "") << "{\"resolution\": \"" << rows[i].resolution << "\", \"ours_ms\": " << rows[i].ours_ms
             << ", \"opencv_ms\": " << rows[i].opencv_ms << ", \"same\": " << (rows[i].equal ? "true" : "false") << "}";
    json << "]}\n";
    cascade::write_file_atomically(o.json_path, json.str());
}

int run(const Options& o) {
    cv::ocl::setUseOpenCL(false);
    cv::setNumThreads(static_cast<int>(std::thread::hardware_concurrency()));
    const cascade::Model model = cascade::load_model(o.model_path);
    const auto* ours = std::get_if<cascade::LbpCascade>(&model.cascade);
    if (!ours) throw cascade::InputError(o.model_path, "is not an LBP cascade (OpenCV's CascadeClassifier runs LBP)");
    cv::CascadeClassifier opencv(o.model_path);
    const std::vector<cv::Mat> source = read_frames(o.video_path, o.frames);
    std::vector<Row> rows;
    for (const cv::Size size : {cv::Size(720, 480), cv::Size(1280, 720), cv::Size(1920, 1080)})
        rows.push_back(time_resolution(*ours, opencv, source, size, o));
    print_table(rows, source.size() - 1);
    if (!o.json_path.empty()) write_json(rows, o);
    for (const Row& r : rows)
        if (!r.equal) return 1;
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    return cascade::cli::run_tool("cascade-bench-cpu", [&] {
        const std::optional<Options> options = parse_options(argc, argv);
        return options ? run(*options) : 0;
    });
}
