#include "gpu/haar_cascade_gpu.hpp"

#include "common/haar_eval.hpp"
#include "gpu/cascade_kernels.cuh"

namespace cascade::gpu {

namespace {

// The Haar window source (gpu/cascade_kernels.cuh): a thread per window; a tree reads 8 or 12 corners a node.
struct HaarSource : FamilyWindows<HaarFamily> {
    static constexpr bool kWarpPerSurvivor = false;
    static constexpr int kSharedThreads = 256;
    static constexpr int kSharedMinBlocks = 2;

    HaarPlanes planes;
    int tile_pitch;  // nothing is tiled: the shared-memory strategy's bank order is immaterial

    __device__ __forceinline__ View view() const {
        View v = view_over<View>(planes.stages, planes.weaks);
        v.nodes = planes.nodes;
        v.leaves = planes.leaves;
        return v;
    }
    __device__ __forceinline__ HaarIntegralView level(const GpuLevel& l) const {
        return {{planes.sums + l.integral_offset, l.integral_stride},
                {planes.squares + l.integral_offset, l.integral_stride},
                {planes.tilted + l.integral_offset, l.integral_stride}};
    }
    __device__ __forceinline__ HaarIntegralView block(const GpuLevel& l, int, int, int, std::uint32_t*) const {
        return level(l);
    }
};

}  // namespace

void run_haar_cascade(const HaarPlanes& p, const CascadeTarget& t, const std::vector<int>& ends, Compaction compaction,
                      cudaStream_t stream, KernelTimer& timer) {
    const HaarSource source{{{p.window, p.policy, t.num_stages}}, p, 1};
    const KernelTuning tuning{0, 0, -1, 0};
    launch_cascade(source, t, tuning, ends, compaction, stream, timer);
}

}  // namespace cascade::gpu
