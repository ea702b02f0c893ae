#include "gpu/cov_cascade_gpu.hpp"

#include "common/cov_eval.hpp"
#include "gpu/cascade_kernels.cuh"

namespace cascade::gpu {

namespace {

// The covariance window source (gpu/cascade_kernels.cuh). A weak learner reads 8 corners of 44 sums and
// diagonalises an 8x8 matrix (some 30,000 double operations, common/cov_jacobi.hpp), so lanes are spent on
// weak learners only where survivors are too few to fill the GPU one per thread: one thread per survivor
// while they are many (the first two groups: 100% and 26% of the windows of pedestrian_cov.xml), four lanes
// from group 2 on (its stages of 4-7 weak learners; 12% down to 2% of the windows), a warp from group 6 on
// (1.4% and fewer, stages of 9-17). Groups as CovGpuOptions' compaction points cut them.
struct CovSource : FamilyWindows<CovFamily> {
    static constexpr int kFirstTeamGroup = 2, kTeamLanes = 4;
    static constexpr int kFirstWarpGroup = 6;
    static constexpr int kFirstBlockGroup = kNoWarpGroup;
    static constexpr int kSharedThreads = 256;
    static constexpr int kSharedMinBlocks = 1;

    const Stage* stages;
    const CovWeak* weaks;
    const std::int64_t* integrals;
    int tile_pitch;  // nothing is tiled

    __device__ __forceinline__ View view() const { return view_over<View>(stages, weaks); }
    __device__ __forceinline__ CovGridView level(const GpuLevel& l) const {
        return {integrals + static_cast<std::size_t>(l.integral_offset) * kCovPlanes, l.integral_stride};
    }
    __device__ __forceinline__ CovGridView block(const GpuLevel& l, int, int, int, std::uint32_t*) const {
        return level(l);
    }
};

}  // namespace

void run_cov_cascade(const CovGpuPlanes& p, const CascadeTarget& t, const std::vector<int>& ends,
                     Compaction compaction, cudaStream_t stream, KernelTimer& timer) {
    const KernelTuning tuning{0, 0, -1, 0};
    const CovSource source{{{p.window, p.policy, t.num_stages}}, p.stages, p.weaks, p.integrals, 1};
    launch_cascade(source, t, tuning, ends, compaction, stream, timer);
}

}  // namespace cascade::gpu
