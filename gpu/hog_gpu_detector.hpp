// The GPU HoG cascade detector: the same raw windows as the CPU reference (common/hog_cpu_detector.hpp), on
// CUDA; a thin instantiation of the detector core (gpu/detector_core.hpp) with the HoG window source and planes.
//
// The model: Zhu et al. 2006, AdaBoost stages of linear SVMs over 36-D blocks. Per frame, every pyramid level in
// the same launches: resample -> gradient orientation bins and magnitudes with the 9 integral histograms -> the
// cascade over every window position, survivors compacted between groups of stages (gpu/gpu_detector.hpp for
// the contract). Gradients, bins, magnitudes and the block descriptor are the shared integer / IEEE-step code of
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
// Compaction strategies and automatic choice: as the LBP detector's (gpu/lbp_gpu_detector.hpp). Scan rule: any
// stride; stride 0 is OpenCV's rule (the position after a stage-0 rejection skipped).
#pragma once

#include "common/hog_cpu_detector.hpp"
#include "common/model.hpp"
#include "gpu/detector_types.hpp"
#include "gpu/gpu_detector.hpp"
#include "gpu/hog_cascade_gpu.hpp"

namespace cascade::gpu {

struct HogGpuOptions : GpuOptions {
    // Compaction points rounded up to stage boundaries: after stages 1, 3, 7 and 12 of models/pedestrian_hog.xml's
    // 20; the scan at the thesis's sparse stride 8.
    HogGpuOptions() {
        compaction_points = {3, 11, 30, 66};
        rule = ScanRule{kHogSparseStride};
    }
};

class HogGpuDetector : public GpuDetector {
public:
    // requires: a validated cascade (common/model.hpp validate), options.pyramid.scale_factor > 1,
    //           compaction points > 0 and increasing, a CUDA device.
    // ensures:  the model is on the device; throws InputError for a model larger than kMaxHogGpuStages /
    //           kMaxHogGpuWeaks (gpu/hog_cascade_gpu.hpp) or bad options, CudaError when CUDA fails.
    HogGpuDetector(const HogCascade& cascade, const HogGpuOptions& options);

    const HogGpuOptions& options() const { return options_; }

private:
    HogGpuOptions options_;
};

}  // namespace cascade::gpu
