// The covariance family's cascade launch (host side; its window source in cov_cascade_gpu.cu, the kernels in
// gpu/cascade_kernels.cuh). Windows read the level's grid integrals (gpu/cov_features_gpu.hpp) from global memory
// with common/cov_eval.hpp's CovWindow, the CPU's code (LBP-histogram learners: the levels' LBP bins too). The
// model's stages and weak learners (504 bytes each, too many for constant memory in a real cascade) stay in global
// memory: the lanes of a warp read the same learner at the same time, which the L1 cache broadcasts.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <vector>

#include "common/model.hpp"
#include "gpu/cascade_target.hpp"
#include "gpu/detector_types.hpp"
#include "gpu/kernel_timer.hpp"

namespace cascade::gpu {

// What the covariance kernels read besides the CascadeTarget.
struct CovGpuPlanes {
    Size window;
    SumPolicy policy;
    const Stage* stages;          // device memory
    const CovWeak* weaks;         // device memory
    const std::int64_t* integrals;  // every level's corners (GpuLevel::integral_offset, integral_stride)
    // The levels' uniform-LBP bins stacked as the level images (GpuLevel::first_row, row pitch `pitch`) for a model
    // with LBP-histogram learners (gpu/cov_features_gpu.hpp build_lbp_bins); nullptr for one without.
    const std::uint8_t* lbp_bins;
    int pitch;
};

// requires: as launch_cascade (gpu/cascade_kernels.cuh).
void run_cov_cascade(const CovGpuPlanes& planes, const CascadeTarget& target, const std::vector<int>& group_ends,
                     Compaction compaction, cudaStream_t stream, KernelTimer& timer);

}  // namespace cascade::gpu
