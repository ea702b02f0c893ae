// Results of cascade-bench: one row per (resolution, detector, strategy), written as JSON, as a full
// markdown table, and as the short summary that tools/gpu-check prints last.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "gpu/detector_types.hpp"

namespace cascade::bench {

struct BenchRow {
    std::string resolution;   // "1920x1080"
    std::string detector;     // "gpu-exact", "gpu-texture", "opencv-cpu"
    std::string strategy;     // compaction strategy ("auto:shared_atomic" once chosen); "-" for OpenCV
    std::string rule;         // "stride 1" or "opencv" (step 2 below scale 2, skip after stage-0 rejection)
    int frames = 0;           // timed frames
    double median_ms = 0;     // GPU: pyramid + cascade by CUDA events; OpenCV: wall clock of detectMultiScale
    double p90_ms = 0;
    double median_call_ms = 0;  // GPU: the whole detect() call (staging, upload, download, sort); OpenCV: = median_ms
    double upload_ms = 0, pyramid_ms = 0, cascade_ms = 0, download_ms = 0;  // GPU medians
    double windows = 0;         // window positions per frame (GPU)
    double windows_per_s = 0;
    std::vector<int> points_weak;   // compaction points in weak learners (then the cascade's length)
    std::vector<double> survivors;  // mean fraction of windows alive after each point (-1: not counted)
    double speedup = 0;             // OpenCV CPU median / this median, same resolution
    std::string parity;             // "yes" / "no" (exact mode vs the CPU reference), "approx" (texture), "-"
    std::vector<gpu::KernelTime> kernels;  // median per kernel name (times summed within a frame)
};

struct BenchContext {
    std::string device, model, date;
    int cpu_threads = 0;
    double scale_factor = 1.1;  // 0: each row's rule names its own (the HoG mode)
    int min_size = 0;
};

void write_json(std::ostream& out, const BenchContext& context, const std::vector<BenchRow>& rows);
void write_markdown(std::ostream& out, const BenchContext& context, const std::vector<BenchRow>& rows);
// resolution, detector, strategy, median ms, ratio to OpenCV CPU, parity: one line each.
void write_summary(std::ostream& out, const std::vector<BenchRow>& rows);

}  // namespace cascade::bench
