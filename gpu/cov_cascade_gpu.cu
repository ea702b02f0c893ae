#include "gpu/cov_cascade_gpu.hpp"

#include "common/cov_eval.hpp"
#include "gpu/cascade_kernels.cuh"

namespace cascade::gpu {

namespace {

// The covariance window source (gpu/cascade_kernels.cuh). A weak learner reads 8 corners of 44 sums and runs a
// Jacobi eigen-decomposition: the survivors of the first group are evaluated one warp per window, a stage's weak
// learners side by side.
struct CovSource : FamilyWindows<CovFamily> {
    static constexpr int kFirstWarpGroup = 1;
    static constexpr int kFirstTeamGroup = kNoWarpGroup;
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
