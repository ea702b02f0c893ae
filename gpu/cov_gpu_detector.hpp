// The GPU region covariance cascade detector: the same raw windows as the CPU reference
// (common/cov_cpu_detector.hpp), on CUDA; a thin instantiation of the detector core (gpu/detector_core.hpp) with
// the covariance window source and planes (gpu/cov_cascade_gpu.hpp, gpu/cov_features_gpu.hpp).
//
// Per frame, every pyramid level in the same launches: resample (the HoG detector's) -> the int64 grid integrals
// of the eight features -> the cascade over every window position, survivors compacted between groups of stages.
// Features, integrals and the window evaluation (covariance, normalisation, Jacobi logarithm, projection) are the
// shared integer / IEEE-step code of common/cov_features.hpp and common/cov_eval.hpp, so in the exact pyramid
// mode the raw windows and scores EQUAL detect_windows(cascade, frame, {pyramid, rule}) for every compaction
// strategy; the texture mode samples the levels with the texture units (close to, not equal to, the CPU's).
// Scan rule: a stride that is a multiple of kCovGrid (default 8; InputError otherwise).
#pragma once

#include "common/cov_cpu_detector.hpp"
#include "common/model.hpp"
#include "gpu/detector_types.hpp"
#include "gpu/gpu_detector.hpp"

namespace cascade::gpu {

struct CovGpuOptions : GpuOptions {
    // Compaction after every stage of pedestrian_cov.xml but its last (2, 5, 9, ... 87 weak learners; other
    // models: rounded up to their stage boundaries): a survivor list costs microseconds, a weak learner on a
    // lane whose window has stopped tens; cov_cascade_gpu.cu says which groups take lanes. Tuzel's stride 8.
    CovGpuOptions() {
        compaction_points = {2, 5, 9, 14, 19, 26, 35, 46, 57, 70, 87};
        rule = ScanRule{kCovDefaultStride};
    }
};

class CovGpuDetector : public GpuDetector {
public:
    // requires: a validated cascade, options.pyramid.scale_factor > 1, a CUDA device.
    // ensures:  the model is on the device; throws InputError for a stride off the grid or bad options,
    //           CudaError when CUDA fails.
    CovGpuDetector(const CovCascade& cascade, const CovGpuOptions& options);

    const CovGpuOptions& options() const { return options_; }

private:
    CovGpuOptions options_;
};

}  // namespace cascade::gpu
