#include "gpu/haar_cascade_gpu.hpp"

#include "common/haar_eval.hpp"
#include "gpu/cascade_kernels.cuh"
#include "gpu/samplers.cuh"

namespace cascade::gpu {

namespace {

// What a Haar window reads, as HaarIntegralView: the level's tables through the non-coherent cache.
struct HaarTables {
    GlobalIntegral sums, squares, tilted;
};

// The Haar window source (gpu/cascade_kernels.cuh): a tree reads 8 or 12 corners a node, which the L1 cache
// serves. A thread per window up to the last group of the default compaction points (trees from 150 on), then a
// warp per survivor: one thread walking frontalface_default's trees 189-2913 took 2.16 ms at 1080p, a warp per
// window from group 1 on (stage 1's 16 stumps over 20% of the windows) made group 1 0.12 -> 0.8 ms
// (docs/benchmarks.md). Measured and left out: tiles of the tables in shared memory, copied per block as the LBP
// source's (first group 0.19 -> 0.33 ms at 1080p).
struct HaarSource : FamilyWindows<HaarFamily> {
    static constexpr int kFirstWarpGroup = 4;
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
    __device__ __forceinline__ GlobalIntegral table(const std::uint32_t* base, const GpuLevel& l) const {
        return {base + l.integral_offset, l.integral_stride};
    }
    __device__ __forceinline__ HaarTables level(const GpuLevel& l) const {
        const GlobalIntegral sums = table(planes.sums, l);  // in place of tilted when no feature reads it
        return {sums, table(planes.squares, l), planes.tilted ? table(planes.tilted, l) : sums};
    }
    __device__ __forceinline__ HaarTables block(const GpuLevel& l, int, int, int, std::uint32_t*) const {
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
