// The GPU LBP detector: the same raw windows as the CPU reference (common/lbp_cpu_detector.hpp), on CUDA.
//
// What it represents: one LBP cascade uploaded to the current CUDA device, with per-frame-size buffers, a
// stream and pinned staging memory. detect() runs one frame: upload, image pyramid, integral images, the
// cascade over every window position with survivor compaction between groups of stages, and download.
//
// Pyramid modes:
//   - exact:   each level is the frame resized by the shared INTER_LINEAR_EXACT per-pixel function
//              (common/resize_exact.hpp), at the CPU's scales; raw windows and scores then EQUAL the CPU's
//              detect_windows for the same cascade and ScanParams, for every compaction strategy.
//   - texture: Macenauer's octave pyramid: levels 2^(k/n) apart (n = round(ln 2 / ln scale_factor) levels
//              per octave), the first octave sampled from the frame and each later octave from the previous
//              one at half size, by hardware bilinear texture fetches, all levels laid out in one canvas
//              texture; the cascade reads the integral images through a texture object. Results are close
//              to, not equal to, the CPU's (tests/gpu state the tolerance).
//
// Compaction strategies (see docs/gpu-design.md): none (one thread per window runs the whole cascade),
// global_atomic, shared_atomic (one kernel, per-block survivor lists in shared memory), hybrid (shared
// counter, one global atomic per block), prefix_sum (cub::BlockScan slots, one global atomic per block), and
// automatic (each strategy timed on the first frames, the fastest kept). The compaction points are given in
// weak learners and rounded up to stage boundaries.
//
// Thread safety: one detector is used by one thread at a time. Detectors share the device's constant memory
// (the model is copied there before each frame when another detector ran last), so calls of different
// detectors must not overlap in time; sequential calls from any threads are fine.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "common/detection.hpp"
#include "common/image.hpp"
#include "common/model.hpp"
#include "common/pyramid.hpp"
#include "common/scan.hpp"

namespace cascade::gpu {

enum class PyramidMode { exact, texture };
enum class Compaction { none, global_atomic, shared_atomic, hybrid, prefix_sum, automatic };

// The five concrete strategies, in a fixed order (automatic tries them in this order).
const std::vector<Compaction>& concrete_compactions();
std::string to_string(Compaction c);
std::string to_string(PyramidMode m);
// Parses "none", "global_atomic", ..., "auto"/"automatic"; throws InputError naming `option` otherwise.
Compaction parse_compaction(const std::string& text, const std::string& option = "--strategy");

struct LbpGpuOptions {
    PyramidMode mode = PyramidMode::exact;
    Compaction compaction = Compaction::automatic;
    // In weak learners, increasing. Measured on OpenCV's frontal face cascade at 1080p (docs/benchmarks.md):
    // after stages 1, 2, 3, 5, 7, 10 and 12 of 20 the shared-memory strategy is 6% faster than after the
    // thesis's 1, 8, 64, 256, 512 (stages 1, 3, 12).
    std::vector<int> compaction_points = {3, 7, 11, 20, 30, 45, 65};
    ScanRule rule;                                                 // stride; 0 = OpenCV's rule
    PyramidParams pyramid;
    int auto_frames = 3;        // frames timed per strategy by automatic (the first of each is a warm-up)
    bool time_kernels = false;  // record an event pair around every kernel (stats.kernels); slightly slower
    // Tuning (results do not depend on these):
    // Exact mode: block-local kernels read their integral tile from shared memory (the shared-memory strategy
    // integrates it from the level's pixels, and the pyramid then builds no integral images).
    bool integral_tiles = true;
    int shared_carveout = -1;    // percent of L1 given to shared memory in the shared-memory strategy; -1: driver's
    // Shared-memory strategy: once a block has at most this many survivors, one warp per survivor runs the
    // rest of the cascade (0: one thread per window to the end).
    int warp_tail = 8;
};

struct KernelTime {
    std::string name;
    float ms = 0.f;
};

// What one detect() call did.
struct LbpGpuStats {
    Compaction strategy = Compaction::none;  // the strategy that ran this frame
    std::vector<int> group_end_stage;        // stage boundaries where survivors were compacted, then num_stages
    std::vector<int> group_end_weak;         // the same boundaries counted in weak learners
    long long windows = 0;                   // window positions evaluated (every position of the grid)
    // survivors[g]: windows that passed every stage before group_end_stage[g] (the last entry: accepted
    // windows before OpenCV's skip rule is applied); -1 where the strategy does not count (none: inner points).
    std::vector<long long> survivors;
    long long detections = 0;  // raw windows returned
    float upload_ms = 0.f;     // host staging copy is not included; the H2D copy is
    float pyramid_ms = 0.f;    // level images and integral images
    float cascade_ms = 0.f;    // cascade kernels, skip resolution, filtering
    float download_ms = 0.f;
    float gpu_ms = 0.f;        // pyramid + cascade: the detection time on the device
    std::vector<KernelTime> kernels;  // when options.time_kernels
};

class LbpGpuDetector {
public:
    // requires: a validated cascade (common/model.hpp validate), options.pyramid.scale_factor > 1,
    //           compaction points > 0 and increasing, a CUDA device.
    // ensures:  the model is on the device; throws InputError for a model the GPU tables cannot hold and
    //           CudaError when CUDA fails.
    LbpGpuDetector(const LbpCascade& cascade, const LbpGpuOptions& options);
    ~LbpGpuDetector();
    LbpGpuDetector(LbpGpuDetector&&) noexcept;
    LbpGpuDetector& operator=(LbpGpuDetector&&) noexcept;

    // requires: frame.data points to host memory of frame.height rows of frame.stride bytes.
    // ensures:  every window the cascade accepts, in image coordinates with score = final sum, sorted by
    //           (rect, score) -- the order of detect_windows, refined by score for equal rectangles.
    //           In exact mode the result equals detect_windows(cascade, frame, {pyramid, rule}).
    std::vector<Detection> detect(const GrayView& frame);

    const LbpGpuStats& last_stats() const;
    const LbpGpuOptions& options() const;
    // The strategy automatic settled on, or the fixed one; automatic while still measuring.
    Compaction chosen_compaction() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace cascade::gpu
