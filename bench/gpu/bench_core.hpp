// The core of cascade-bench, the same for every feature family: options, the loop over resolutions, scale
// steps and configurations, the timing of a GPU detector, parity with the CPU reference, and the report.
// A family (bench/gpu/lbp_bench.cpp, bench/gpu/hog_bench.cpp) supplies a BenchFamily: its OpenCV detector,
// its GPU detector for a configuration and its CPU reference.
//
// For each resolution and scale step: OpenCV's CPU detector on all cores (its raw windows), then each
// configuration MODE/STRIDE/STRATEGY: warm-up frames (enough for 'auto' to settle), then timed frames cycling
// through the set: median and p90 of the device time (pyramid + cascade, CUDA events), the median detect()
// call, windows per second, survivors after each compaction point, per-kernel medians from a second detector
// with kernel timing, and parity: exact mode must give the CPU reference's raw windows on the first frames.
// The run fails (exit 1) on any parity failure.
#pragma once

#include <memory>
#include <opencv2/core.hpp>
#include <string>
#include <vector>

#include "bench/gpu/bench_report.hpp"
#include "common/detection.hpp"
#include "gpu/gpu_detector.hpp"

namespace cascade::bench {

struct BenchOptions {
    std::string data = "gpu-pack/data", model, json, markdown, date;
    std::vector<std::string> resolutions;
    std::vector<double> scales;
    std::vector<std::string> configs;  // MODE/STRIDE/STRATEGY or MODE/STRATEGY (at `stride`)
    int stride = 1;
    int frames = 100, warmup = 10, opencv_frames = 10, parity_frames = 2, kernel_frames = 10;
    int max_sources = 0, threads = 0;
    bool opencv = true;
    // LBP tuning (cascade-bench's LBP options):
    std::vector<int> points;   // compaction points in weak learners
    bool every_stage = false;  // --points stages: a compaction point at every stage boundary
    bool tiles = true;
    int carveout = -1;
    int warp_tail = 0;
    int min_size = 0;  // smallest object, pixels (0: the model window)
};

// The options a family accepts beside the common ones (--data ... --no-opencv).
enum class FamilyOptions { lbp, hog };

// Parses argv[1..] over `defaults`; prints `usage` and exits 0 on --help. Throws cli::UsageError naming a bad
// option or value.
BenchOptions parse_bench_options(int argc, char** argv, BenchOptions defaults, FamilyOptions family,
                                 const char* usage);

struct Config {
    gpu::PyramidMode mode;
    int stride;
    gpu::Compaction compaction;
};

class BenchFamily {
public:
    virtual ~BenchFamily() = default;
    virtual Size window() const = 0;
    // Whether OpenCV's CPU detector can run the model (false: no OpenCV rows); time_opencv gives its row.
    virtual bool opencv_available() const = 0;
    virtual BenchRow time_opencv(const std::vector<cv::Mat>& frames, const std::string& resolution, double scale,
                                 int stride) = 0;
    virtual std::unique_ptr<gpu::GpuDetector> make_detector(const Config& config, double scale, bool time_kernels) = 0;
    // The CPU reference's raw windows (detect_windows), sorted by (rect, score).
    virtual std::vector<Detection> cpu_windows(const cv::Mat& frame, int stride, double scale) = 0;
    virtual std::string detector_name(gpu::PyramidMode mode) const = 0;  // the row's detector column
    virtual std::string rule_text(int stride, double scale) const = 0;   // the row's rule column
    // The kernel medians as the row reports them; transfers_ms: the row's upload + download medians.
    virtual std::vector<gpu::KernelTime> kernel_rows(const std::vector<gpu::KernelTime>& medians,
                                                     double transfers_ms) const = 0;
};

// The whole benchmark; returns the exit status (1 on a parity failure).
int run_bench(const BenchOptions& options, BenchFamily& family);

}  // namespace cascade::bench
