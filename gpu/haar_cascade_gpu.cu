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
// serves. With the default compaction points (gpu/haar_gpu_detector.hpp: groups end at frontalface_default's
// trees 9, 25, 84, 189, 406, 2913) a thread per window in groups 0-3, a warp per survivor in group 4 and a block
// of 256 threads per survivor in group 5, each adding a stage's responses side by side where the cascade's
// sums are exact in any order (common/haar_eval.hpp exact_stage_sums; every OpenCV Haar cascade). Group 5 is
// the few windows that go deep: a warp took a stage of up to 211 trees in seven rounds, one after another for
// the deepest windows (0.53 ms of 1.58 for trees 189-2913 at 1080p); a block takes it in one (0.21 ms for
// groups 4 and 5). Measured and left out (docs/benchmarks.md): a warp per survivor from group 1 (group 1
// 0.12 -> 0.8 ms) or 2-3, tiles of the tables in shared memory copied per block as the LBP source's (first
// group 0.19 -> 0.33 ms), each warp's window staged in shared memory (no faster: the deep groups wait on their
// chain of dependent loads, not on the L1 cache).
struct HaarSource : FamilyWindows<HaarFamily> {
    static constexpr int kFirstWarpGroup = 4;
    static constexpr int kFirstBlockGroup = 5;
    static constexpr int kSharedThreads = 256;
    static constexpr int kSharedMinBlocks = 2;

    HaarPlanes planes;
    int tile_pitch;   // nothing is tiled: the shared-memory strategy's bank order is immaterial
    bool exact_sums;  // planes.exact_sums: warps and blocks add a stage's responses side by side

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
    const HaarSource source{{{p.window, p.policy, t.num_stages}}, p, 1, p.exact_sums};
    const KernelTuning tuning{0, 0, -1, 0};
    launch_cascade(source, t, tuning, ends, compaction, stream, timer);
}

}  // namespace cascade::gpu
