// cascade-bench match: the GPU template matcher (gpu/template_match_gpu.hpp) against OpenCV's cv::matchTemplate
// (all cores) on the same real frames (bench-frames/*.pgm, resized to each resolution; colour: three frames as
// the B, G, R planes), per resolution, channels, template size (cut from the frame's centre) and TM_* mode.
// GPU: the matcher's path (--path auto: the faster of the direct kernel and the FFT path, timed on the first
// frame; or direct, fft) and its median time per frame (CUDA events, `--repeats` launches per frame,
// image already on the device), and a whole call (upload, kernel, download of the float map). Each row also
// gives the largest |GPU - OpenCV| score difference and how far the kernel is from the card's INT32 issue rate
// (one IMAD per template pixel and channel; the window sums add under 1/4 of that) and its memory bandwidth.
#include "bench/gpu/families.hpp"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <opencv2/imgproc.hpp>

#include "bench/gpu/bench_frames.hpp"
#include "bench/gpu/bench_util.hpp"
#include "bench/gpu/pgm.hpp"
#include "cli/usage_error.hpp"
#include "cli/values.hpp"
#include "common/error.hpp"
#include "gpu/cuda_check.hpp"
#include "gpu/template_match_gpu.hpp"

namespace cascade::bench {

namespace {

const char* const kUsage =
    "usage: cascade-bench match [--data DIR] [--resolutions 1920x1080,3072x2304] [--templates 16,32,128]\n"
    "  [--channels 1,3] [--path auto|direct|fft] [--frames 3] [--repeats 5] [--threads N] [--no-opencv]\n"
    "  [--markdown FILE]\n";
const char* const kModes[] = {"sqdiff", "sqdiff_normed", "ccorr", "ccorr_normed", "ccoeff", "ccoeff_normed"};

struct MatchBenchOptions {
    std::string data = "gpu-pack/data", markdown;
    std::vector<Size> resolutions{{1920, 1080}, {3072, 2304}};
    std::vector<int> templates{16, 32, 128}, channels{1, 3};
    int frames = 3, repeats = 5, threads = 0;
    bool opencv = true;
    gpu::MatchPath path = gpu::MatchPath::automatic;
};

struct Row {
    std::string resolution;
    int channels, templ;
    const char* mode;
    gpu::MatchPath path;
    double kernel_ms, call_ms, opencv_ms, max_diff, int_percent, bandwidth_percent;
};

std::vector<int> int_list(const std::string& option, const std::string& text) {
    std::vector<int> out;
    for (const std::string& item : split(text, ',')) out.push_back(cli::parse_int(option, item));
    if (out.empty()) throw cli::UsageError(option, "empty list");
    return out;
}

MatchBenchOptions parse(int argc, char** argv) {
    MatchBenchOptions o;
    for (int i = 1; i < argc; ++i) {
        const std::string key = argv[i];
        if (key == "--no-opencv") {
            o.opencv = false;
            continue;
        }
        if (i + 1 >= argc) throw cli::UsageError(key, std::string("needs a value\n") + kUsage);
        const std::string value = argv[++i];
        if (key == "--data") o.data = value;
        else if (key == "--markdown") o.markdown = value;
        else if (key == "--templates") o.templates = int_list(key, value);
        else if (key == "--channels") o.channels = int_list(key, value);
        else if (key == "--frames") o.frames = cli::parse_int(key, value);
        else if (key == "--repeats") o.repeats = cli::parse_int(key, value);
        else if (key == "--threads") o.threads = cli::parse_int(key, value);
        else if (key == "--path") {
            if (value == "auto") o.path = gpu::MatchPath::automatic;
            else if (value == "direct") o.path = gpu::MatchPath::direct;
            else if (value == "fft") o.path = gpu::MatchPath::fft;
            else throw cli::UsageError(key, "'" + value + "' is not auto, direct or fft");
        }
        else if (key == "--resolutions") {
            o.resolutions.clear();
            for (const std::string& item : split(value, ',')) o.resolutions.push_back(cli::parse_size(key, item));
        } else throw cli::UsageError(key, std::string("unknown option\n") + kUsage);
    }
    for (const int c : o.channels)
        if (c != 1 && c != 3) throw cli::UsageError("--channels", std::to_string(c) + " is not 1 or 3");
    for (const int t : o.templates)
        for (const Size r : o.resolutions)
            if (t < 1 || t > std::min(r.width, r.height))
                throw cli::UsageError("--templates", std::to_string(t) + " does not fit the resolutions (1..frame)");
    if (o.frames < 1) throw cli::UsageError("--frames", "must be >= 1");
    if (o.repeats < 1) throw cli::UsageError("--repeats", "must be >= 1");
    return o;
}

MatchPlanes planes_of(const std::vector<cv::Mat>& planes) {
    MatchPlanes p;
    p.channels = static_cast<int>(planes.size());
    for (int c = 0; c < p.channels; ++c) p.planes[c] = view_of(planes[static_cast<std::size_t>(c)]);
    return p;
}

// The card's INT32 issue rate (64 lanes per SM and clock on Hopper) and memory bandwidth (double data rate).
struct CardLimits {
    double int_ops_per_s = 0, bytes_per_s = 0;
};

CardLimits card_limits() {
    int sms = 0, clock_khz = 0, memory_khz = 0, bus_bits = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0);
    cudaDeviceGetAttribute(&memory_khz, cudaDevAttrMemoryClockRate, 0);
    cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, 0);
    return {64.0 * sms * clock_khz * 1e3, 2.0 * memory_khz * 1e3 * bus_bits / 8};
}

double max_difference(const ScoreMap& gpu, const cv::Mat& cv_map) {
    double worst = 0;
    for (int y = 0; y < gpu.height; ++y)
        for (int x = 0; x < gpu.width; ++x)
            worst = std::max(worst, std::abs(double(gpu.scores[static_cast<std::size_t>(y) * gpu.width + x]) -
                                             cv_map.at<float>(y, x)));
    return worst;
}

// One row: every frame matched on the GPU (kernel and whole call) and by OpenCV.
Row time_row(const MatchBenchOptions& o, const std::vector<std::vector<cv::Mat>>& frames, int templ_size, int m,
             const CardLimits& limits) {
    const std::vector<cv::Mat>& first = frames.front();
    const cv::Rect centre((first[0].cols - templ_size) / 2, (first[0].rows - templ_size) / 2, templ_size,
                          templ_size);
    std::vector<cv::Mat> templ;
    for (const cv::Mat& p : first) templ.push_back(p(centre).clone());
    gpu::TemplateMatcherGpu matcher(planes_of(templ), static_cast<MatchMethod>(m), o.path);
    std::vector<double> kernel, call, opencv;
    double worst = 0;
    cv::Mat image, templ_merged, result;
    cv::merge(templ, templ_merged);
    for (const auto& planes : frames) {
        const auto start = std::chrono::steady_clock::now();
        const ScoreMap map = matcher.score_map(planes_of(planes));
        call.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
        kernel.push_back(matcher.rerun(o.repeats));
        if (!o.opencv) continue;
        cv::merge(planes, image);
        const auto cv_start = std::chrono::steady_clock::now();
        cv::matchTemplate(image, templ_merged, result, m);
        opencv.push_back(
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - cv_start).count());
        worst = std::max(worst, max_difference(map, result));
    }
    Row r{std::to_string(first[0].cols) + "x" + std::to_string(first[0].rows), static_cast<int>(first.size()),
          templ_size, kModes[m], matcher.path(), percentile(kernel, 0.5), percentile(call, 0.5), percentile(opencv, 0.5), worst, 0, 0};
    const double positions = double(first[0].cols - templ_size + 1) * (first[0].rows - templ_size + 1);
    const double macs = positions * templ_size * templ_size * r.channels;
    const double bytes = double(first[0].total()) * r.channels + positions * sizeof(float);
    if (r.kernel_ms > 0) {  // the INT32 share only means something for the direct kernel
        if (r.path == gpu::MatchPath::direct) r.int_percent = 100 * macs / (r.kernel_ms * 1e-3) / limits.int_ops_per_s;
        r.bandwidth_percent = 100 * bytes / (r.kernel_ms * 1e-3) / limits.bytes_per_s;
    }
    return r;
}

std::string number(double value, const char* format, bool present) {
    if (!present) return "-";
    char text[32];
    std::snprintf(text, sizeof text, format, value);
    return text;
}

std::string markdown(const std::vector<Row>& rows, const MatchBenchOptions& o) {
    std::string out = "| resolution | ch | template | mode | path | GPU kernel ms | GPU call ms | OpenCV ms | speed-up "
                      "(kernel) | max abs diff | % INT32 peak | % DRAM peak |\n"
                      "|---|---|---|---|---|---|---|---|---|---|---|---|\n";
    char line[256];
    for (const Row& r : rows) {
        std::snprintf(line, sizeof line, "| %s | %d | %dx%d | %s | %s | %.4f | %.3f | %s | %s | %s | %s | %.2f |\n",
                      r.resolution.c_str(), r.channels, r.templ, r.templ, r.mode,
                      r.path == gpu::MatchPath::fft ? "fft" : "direct", r.kernel_ms, r.call_ms,
                      number(r.opencv_ms, "%.2f", o.opencv).c_str(),
                      number(r.opencv_ms / r.kernel_ms, "%.0fx", o.opencv && r.kernel_ms > 0).c_str(),
                      number(r.max_diff, "%.2g", o.opencv).c_str(),
                      number(r.int_percent, "%.1f", r.path == gpu::MatchPath::direct).c_str(), r.bandwidth_percent);
        out += line;
    }
    return out;
}

}  // namespace

int run_match_bench(int argc, char** argv) {
    const MatchBenchOptions o = parse(argc, argv);
    if (!gpu::cuda_device_available()) throw InputError("cascade-bench match", "no CUDA device");
    cv::setNumThreads(o.threads > 0 ? o.threads : -1);
    std::vector<std::string> sources = list_pgm(o.data + "/bench-frames");
    if (sources.size() < 3) throw InputError(o.data + "/bench-frames", "fewer than 3 frames");
    sources.resize(std::min(sources.size(), static_cast<std::size_t>(o.frames) + 2));
    const CardLimits limits = card_limits();
    std::vector<Row> rows;
    for (const Size res : o.resolutions) {
        const std::vector<cv::Mat> grey = load_bench_frames(sources, {res.width, res.height});
        for (const int channels : o.channels) {
            std::vector<std::vector<cv::Mat>> frames;
            for (int f = 0; f < o.frames; ++f) {
                std::vector<cv::Mat> planes;
                for (int c = 0; c < channels; ++c) planes.push_back(grey[(f + c) % grey.size()]);
                frames.push_back(planes);
            }
            for (const int t : o.templates)
                for (int m = 0; m < 6; ++m) {
                    rows.push_back(time_row(o, frames, t, m, limits));
                    std::cerr << markdown({rows.back()}, o).substr(markdown({}, o).size());
                }
        }
    }
    std::string text = "cascade-bench match, " + today() + ", " + device_name() + ", OpenCV on " +
                       std::to_string(cv::getNumThreads()) + " threads, " + std::to_string(o.frames) +
                       " frames per row, " + std::to_string(o.repeats) + " kernel launches per frame\n\n" +
                       markdown(rows, o);
    std::cout << text;
    if (!o.markdown.empty()) std::ofstream(o.markdown) << text;
    return 0;
}

}  // namespace cascade::bench
