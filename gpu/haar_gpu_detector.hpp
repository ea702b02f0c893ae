// The GPU Haar cascade detector (OpenCV's Haar cascades, common/haar_cpu_detector.hpp): the same raw windows as
// the CPU reference, on CUDA; a thin instantiation of the detector core (gpu/detector_core.hpp) with the Haar
// window source and planes (gpu/haar_cascade_gpu.hpp).
//
// Per frame: the exact pyramid's level pixels (gpu/pyramid_gpu.hpp build_exact_levels), every level's integral,
// squared and tilted integral images (build_haar_integrals), then the cascade over every window position,
// survivors compacted between groups of stages. Window evaluation is common/haar_eval.hpp's, explicit IEEE steps
// on both sides, so raw windows and scores EQUAL detect_windows(cascade, frame, {pyramid, rule}) for every
// compaction strategy; a window HaarWindow refuses (flat) is rejected without skipping the next position under
// OpenCV's rule, as on the CPU. Exact pyramid mode only (texture mode is refused).
#pragma once

#include "common/haar_cpu_detector.hpp"
#include "common/model.hpp"
#include "gpu/detector_types.hpp"
#include "gpu/gpu_detector.hpp"

namespace cascade::gpu {

// The compaction points cut frontalface_default after trees 9, 25, 84, 189 and 406: the last group, from 406 on
// (0.18% of the windows at 1080p), is the one HaarSource gives a block per survivor (gpu/haar_cascade_gpu.cu);
// 250 or 500 measured within 6% and 1% of it (docs/benchmarks.md).
struct HaarGpuOptions : GpuOptions {
    HaarGpuOptions() { compaction_points = {3, 9, 25, 60, 150, 400}; }
};

class HaarGpuDetector : public GpuDetector {
public:
    // requires: a validated cascade (common/model.hpp validate), options.pyramid.scale_factor > 1,
    //           compaction points > 0 and increasing, a CUDA device.
    // ensures:  the model is on the device; throws InputError for texture mode or bad options, CudaError when
    //           CUDA fails.
    HaarGpuDetector(const HaarCascade& cascade, const HaarGpuOptions& options);
    const HaarGpuOptions& options() const { return options_; }

private:
    HaarGpuOptions options_;
};

}  // namespace cascade::gpu
