// The GPU HoG cascade detector: the same raw windows as the CPU reference (common/hog_cpu_detector.hpp), on
// CUDA.
//
// What it represents: one HoG cascade (Zhu et al. 2006: AdaBoost stages of linear SVMs over 36-D blocks)
// uploaded to the current CUDA device, with per-frame-size buffers, a stream and pinned staging memory.
// detect() runs one frame, every pyramid level in the same launches:
//   resample -> gradient orientation bins and magnitudes with the 9 integral histograms -> the cascade over
//   every window position, survivors compacted between groups of stages -> download.
// Gradients, bins, magnitudes and the block descriptor are the shared integer / IEEE-step code of
// common/hog_features.hpp and common/hog_eval.hpp; docs/gpu-design.md ("HoG detector") has the kernels.
//
// Pyramid modes (the levels are always the CPU's pyramid_levels):
//   - exact:   each level pixel is the shared INTER_LINEAR_EXACT per-pixel function (common/resize_exact.hpp);
//              raw windows and scores then EQUAL detect_windows(cascade, frame, {pyramid, rule}) for every
//              compaction strategy.
//   - texture: each level pixel is one hardware bilinear texture fetch from the frame (8-bit fractional
//              weights), so a pixel may differ from the exact resize by a grey level or so; detections are
//              close to, not equal to, the CPU's (tests/gpu/test_hog_gpu.cpp states and asserts the tolerance).
//
// Compaction strategies and automatic choice: as the LBP detector (gpu/lbp_gpu_detector.hpp), with the
// block-level compactors of gpu/compaction.cuh. Scan rule: any stride; stride 0 is OpenCV's rule (the
// position after a stage-0 rejection skipped), resolved on the device as for LBP (gpu/skip_rule.hpp).
//
// Thread safety: one detector is used by one thread at a time. HoG detectors share the device's constant
// memory among themselves (not with LBP detectors): calls of different HoG detectors must not overlap in time.
#pragma once

#include <memory>
#include <vector>

#include "common/detection.hpp"
#include "common/hog_cpu_detector.hpp"
#include "common/image.hpp"
#include "common/model.hpp"
#include "common/pyramid.hpp"
#include "common/scan.hpp"
#include "gpu/lbp_gpu_detector.hpp"  // PyramidMode, Compaction, KernelTime, LbpGpuStats

namespace cascade::gpu {

// Largest model the constant-memory tables hold (a HogWeak is 168 bytes; 64 KB per module).
constexpr int kMaxHogGpuStages = 256;
constexpr int kMaxHogGpuWeaks = 320;

struct HogGpuOptions {
    PyramidMode mode = PyramidMode::exact;
    Compaction compaction = Compaction::automatic;
    // In weak learners, increasing; rounded up to stage boundaries (models/pedestrian_hog.xml: after stages
    // 1, 3, 7 and 12 of 20).
    std::vector<int> compaction_points = {3, 11, 30, 66};
    ScanRule rule{kHogSparseStride};  // stride 8; 0 = OpenCV's rule
    PyramidParams pyramid;
    int auto_frames = 3;        // frames timed per strategy by automatic (the first of each is a warm-up)
    bool time_kernels = false;  // record an event pair around every kernel (stats.kernels); slightly slower
};

// What one detect() call did: the LBP detector's record. pyramid_ms covers resampling, gradients and the
// integral histograms; kernels (with time_kernels) are named resample, gradient_integral_rows,
// integral_columns, cascade_<strategy>/<group> or cascade_shared, skip rule kernels.
using HogGpuStats = LbpGpuStats;

class HogGpuDetector {
public:
    // requires: a validated cascade (common/model.hpp validate), options.pyramid.scale_factor > 1,
    //           compaction points > 0 and increasing, a CUDA device.
    // ensures:  the model is on the device; throws InputError for a model larger than kMaxHogGpuStages /
    //           kMaxHogGpuWeaks or bad options, CudaError when CUDA fails.
    HogGpuDetector(const HogCascade& cascade, const HogGpuOptions& options);
    ~HogGpuDetector();
    HogGpuDetector(HogGpuDetector&&) noexcept;
    HogGpuDetector& operator=(HogGpuDetector&&) noexcept;

    // requires: frame.data points to host memory of frame.height rows of frame.stride bytes.
    // ensures:  every window the cascade accepts, in image coordinates with score = final sum, sorted by
    //           (rect, score). In exact mode the result equals detect_windows(cascade, frame, {pyramid, rule})
    //           (common/hog_cpu_detector.hpp) sorted the same way.
    std::vector<Detection> detect(const GrayView& frame);

    const HogGpuStats& last_stats() const;
    const HogGpuOptions& options() const;
    // The strategy automatic settled on, or the fixed one; automatic while still measuring.
    Compaction chosen_compaction() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace cascade::gpu
