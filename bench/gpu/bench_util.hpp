// Small pieces of cascade-bench (bench/gpu/bench_core.hpp and its families): list parsing, percentiles, the frame
// view, the date and device lines, window comparison, OpenCV's timing and per-kernel medians.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <map>
#include <opencv2/core.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "common/detection.hpp"
#include "common/image.hpp"
#include "common/scan.hpp"
#include "bench/gpu/bench_core.hpp"
#include "bench/gpu/bench_report.hpp"
#include "gpu/gpu_detector.hpp"

namespace cascade::bench {

inline std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> out;
    std::stringstream in(s);
    for (std::string item; std::getline(in, item, sep);)
        if (!item.empty()) out.push_back(item);
    return out;
}

// The value at fraction p of the sorted values (0.5: the median); 0 for none.
inline double percentile(std::vector<double> v, double p) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, static_cast<std::size_t>(p * static_cast<double>(v.size())))];
}

inline GrayView view_of(const cv::Mat& m) { return {m.data, m.cols, m.rows, static_cast<int>(m.step)}; }

inline std::string today() {
    const std::time_t t = std::time(nullptr);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%d", std::gmtime(&t));
    return buf;
}

inline std::string device_name() {
    cudaDeviceProp p{};
    if (cudaGetDeviceProperties(&p, 0) != cudaSuccess) return "no CUDA device";
    return std::string(p.name) + " (" + std::to_string(p.multiProcessorCount) + " SMs)";
}

inline bool by_rect_then_score(const Detection& a, const Detection& b) {
    return a.rect < b.rect || (a.rect == b.rect && a.score < b.score);
}

inline std::vector<Detection> sorted(std::vector<Detection> windows) {
    std::sort(windows.begin(), windows.end(), by_rect_then_score);
    return windows;
}

// A family's GPU detector options for `config` at scale step `scale` (every other option its default).
template <class Options>
Options detector_options(const Config& config, double scale, bool time_kernels) {
    Options options;
    options.mode = config.mode;
    options.compaction = config.compaction;
    options.rule.stride = config.stride;
    options.pyramid.scale_factor = scale;
    options.time_kernels = time_kernels;
    return options;
}

// The CPU reference's raw windows of `cascade` at `stride` and scale step `scale`, sorted.
template <class Cascade>
std::vector<Detection> reference_windows(const Cascade& cascade, const cv::Mat& frame, int stride, double scale) {
    ScanParams params;
    params.pyramid.scale_factor = scale;
    params.rule.stride = stride;
    return sorted(detect_windows(cascade, view_of(frame), params));
}

inline bool equal_windows(const std::vector<Detection>& a, const std::vector<Detection>& b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](const Detection& x, const Detection& y) {
               return x.rect == y.rect && x.score == y.score;
           });
}

// A row of an OpenCV CPU detector: `detect` run on the first frame (warm-up), then timed on `count` frames
// cycling through the set (wall clock).
template <class Detect>
BenchRow opencv_row(const std::vector<cv::Mat>& frames, int count, const std::string& resolution,
                    const std::string& detector, const std::string& rule, Detect detect) {
    detect(frames[0]);
    std::vector<double> ms;
    for (int i = 0; i < count; ++i) {
        const auto start = std::chrono::steady_clock::now();
        detect(frames[i % frames.size()]);
        ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    }
    BenchRow r;
    r.resolution = resolution;
    r.detector = detector;
    r.strategy = "-";
    r.rule = rule;
    r.frames = count;
    r.median_ms = r.median_call_ms = percentile(ms, 0.5);
    r.p90_ms = percentile(ms, 0.9);
    r.speedup = 1.0;
    r.parity = "-";
    return r;
}

// Median per kernel name over `count` frames after two warm-up frames, the times of one name summed within a
// frame. requires: a GPU detector built with options.time_kernels.
inline std::vector<gpu::KernelTime> kernel_medians(gpu::GpuDetector& d, const std::vector<cv::Mat>& frames, int count) {
    std::map<std::string, std::vector<double>> per_name;
    std::vector<std::string> order;
    for (int i = 0; i < count + 2; ++i) {
        d.detect(view_of(frames[i % frames.size()]));
        if (i < 2) continue;
        std::map<std::string, double> frame;
        for (const auto& k : d.last_stats().kernels) {
            if (!frame.count(k.name) && !per_name.count(k.name)) order.push_back(k.name);
            frame[k.name] += k.ms;
        }
        for (const auto& [name, ms] : frame) per_name[name].push_back(ms);
    }
    std::vector<gpu::KernelTime> out;
    for (const auto& name : order) out.push_back({name, static_cast<float>(percentile(per_name[name], 0.5))});
    return out;
}

}  // namespace cascade::bench
