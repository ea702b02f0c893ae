// Times the CPU reference LBP detector and cv::CascadeClassifier::detectMultiScale on the same real frames,
// both on all cores, and checks on every frame that both return the same rectangles. Prints a markdown
// table (and JSON with --json FILE). A benchmark, not a test: results go to docs/benchmarks.md by hand.
#include <algorithm>
#include <boost/program_options.hpp>
#include <chrono>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <opencv2/core/ocl.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/objdetect.hpp>
#include <opencv2/videoio.hpp>
#include <sstream>
#include <thread>

#include "common/postprocess.hpp"
#include "common/error.hpp"
#include "common/lbp_cpu_detector.hpp"
#include "common/model_io.hpp"

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

}  // namespace

int main(int argc, char** argv) {
    std::string model_path, video_path, json_path;
    int frames = 20, min_neighbors = 3;
    double scale_factor = 1.1;
    po::options_description options("cascade-bench-cpu: CPU reference detector vs OpenCV, same frames, all cores");
    options.add_options()("help,h", "this help")(
        "model", po::value(&model_path)->default_value("/usr/share/opencv4/lbpcascades/lbpcascade_frontalface.xml"),
        "OpenCV LBP cascade")("video",
                              po::value(&video_path)->default_value("/usr/share/doc/opencv-doc/examples/data/vtest.avi"),
                              "frames to time (scaled to each resolution)")(
        "frames", po::value(&frames)->default_value(20), "frames per resolution")(
        "scale-factor", po::value(&scale_factor)->default_value(1.1), "pyramid scale factor")(
        "min-neighbors", po::value(&min_neighbors)->default_value(3), "grouping threshold")(
        "json", po::value(&json_path), "also write the results as JSON");
    po::variables_map vm;
    try {
        po::store(po::parse_command_line(argc, argv, options), vm);
        po::notify(vm);
    } catch (const std::exception& e) {
        std::cerr << "cascade-bench-cpu: error: " << e.what() << "\n";
        return 2;
    }
    if (vm.count("help")) {
        std::cout << options << "\n";
        return 0;
    }
    try {
        cv::ocl::setUseOpenCL(false);
        cv::setNumThreads(static_cast<int>(std::thread::hardware_concurrency()));
        const cascade::Model model = cascade::load_model(model_path);
        const auto& ours = std::get<cascade::LbpCascade>(model.cascade);
        cv::CascadeClassifier opencv(model_path);
        cv::VideoCapture video(video_path);
        if (!video.isOpened()) throw cascade::InputError(video_path, "cannot open video");
        std::vector<cv::Mat> source;
        for (cv::Mat frame; static_cast<int>(source.size()) < frames && video.read(frame);) {
            cv::Mat gray;
            cv::cvtColor(frame, gray, cv::COLOR_BGR2GRAY);
            source.push_back(gray);
            for (int skip = 0; skip < 10; ++skip) video.grab();  // spread the frames over the video
        }
        if (source.empty()) throw cascade::InputError(video_path, "no frames could be decoded");

        cascade::ScanParams params;
        params.pyramid.scale_factor = scale_factor;
        cascade::GroupingParams grouping;
        grouping.min_neighbors = min_neighbors;
        std::vector<Row> rows;
        for (const cv::Size size : {cv::Size(720, 480), cv::Size(1280, 720), cv::Size(1920, 1080)}) {
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
                    time_ms([&] { opencv.detectMultiScale(frame, theirs, scale_factor, min_neighbors); });
                if (i == 0) continue;  // warm-up frame
                ours_ms.push_back(t_ours);
                opencv_ms.push_back(t_opencv);
                std::sort(grouped.begin(), grouped.end());
                row.equal = row.equal && grouped == sorted_rects(theirs);
                row.detections += grouped.size();
            }
            row.ours_ms = median(ours_ms);
            row.opencv_ms = median(opencv_ms);
            rows.push_back(row);
        }

        std::cout << "| resolution | frames | ours (ms, median) | OpenCV (ms, median) | OpenCV / ours | detections | "
                     "same rectangles |\n|---|---|---|---|---|---|---|\n";
        for (const Row& r : rows)
            std::cout << "| " << r.resolution << " | " << source.size() - 1 << " | " << std::fixed
                      << std::setprecision(2) << r.ours_ms << " | " << r.opencv_ms << " | " << r.opencv_ms / r.ours_ms
                      << " | " << r.detections << " | " << (r.equal ? "yes" : "NO") << " |\n";
        if (!json_path.empty()) {
            std::ofstream json(json_path);
            json << "{\"model\": \"" << model_path << "\", \"threads\": " << std::thread::hardware_concurrency()
                 << ", \"scale_factor\": " << scale_factor << ", \"rows\": [";
            for (std::size_t i = 0; i < rows.size(); ++i)
                json << (i ? ", " : "") << "{\"resolution\": \"" << rows[i].resolution
                     << "\", \"ours_ms\": " << rows[i].ours_ms << ", \"opencv_ms\": " << rows[i].opencv_ms
                     << ", \"same\": " << (rows[i].equal ? "true" : "false") << "}";
            json << "]}\n";
        }
        for (const Row& r : rows)
            if (!r.equal) return 1;
    } catch (const std::exception& e) {
        std::cerr << "cascade-bench-cpu: error: " << e.what() << "\n";
        return 1;
    }
    return 0;
}
