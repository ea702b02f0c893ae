#include "gpu/haar_cascade_gpu.hpp"

#include <algorithm>

#include "common/haar_eval.hpp"
#include "gpu/cascade_kernels.cuh"

namespace cascade::gpu {

namespace {

// The model's first stages (HaarConstantPrefix), for the groups that one thread per window evaluates: the
// threads of a warp read the same tree and node at once, which constant memory broadcasts without taking the
// L1 pipeline that each window's corner reads wait on (the first group's 9 stumps read 13 node words each).
__constant__ Stage c_stages[kHaarConstantStages];
__constant__ HaarTree c_weaks[kHaarConstantTrees];
__constant__ HaarNode c_nodes[kHaarConstantNodes];
__constant__ float c_leaves[kHaarConstantLeaves];

// One of a level's tables, read through the non-coherent cache with one int index a read. HaarWindow reads it
// moved to the window's origin (shifted), each corner then one wide multiply-add off it, where the 64-bit sums
// of samplers.cuh's GlobalIntegral (which the LBP kernels keep: 2-4% faster there) cost three more instructions.
struct HaarTable {
    const std::uint32_t* data;
    int stride;
    __device__ __forceinline__ std::uint32_t at(int x, int y) const { return __ldg(data + (y * stride + x)); }
};

// The table moved so that its (x, y) is (0, 0) (common/haar_eval.hpp), the new origin opaque to the compiler,
// which would otherwise fold it back into every corner's index as a 64-bit sum.
__device__ __forceinline__ HaarTable shifted(const HaarTable& t, int x, int y) {
    const std::uint32_t* origin = t.data + (y * t.stride + x);
    asm("mov.b64 %0, %0;" : "+l"(origin));
    return {origin, t.stride};
}

// The variance factors of a level's windows (common/haar_eval.hpp keep_factor), at the window's origin in the
// tables' layout: the first group writes every window's (`known` false), later groups read their survivors'.
struct HaarFactors {
    float* at;  // the level's (x, y) = (0, 0); null: none kept (a window's moved tables)
    int stride;
    bool known;
};

// What a Haar window reads, as HaarIntegralView. kTilted false: the cascade has no tilted feature (no tilted
// table; `tilted` is the sums), and its windows skip each feature's test of its kind (common/haar_eval.hpp
// ReadsTilted).
template <bool Tilted>
struct HaarTables {
    static constexpr bool kTilted = Tilted;
    HaarTable sums, squares, tilted;
    HaarFactors factors;
};

template <bool Tilted>
__device__ __forceinline__ bool kept_factor(const HaarTables<Tilted>& t, int x, int y, float& factor) {
    if (!t.factors.known) return false;
    factor = __ldg(t.factors.at + (y * t.factors.stride + x));
    return true;
}

template <bool Tilted>
__device__ __forceinline__ void keep_factor(const HaarTables<Tilted>& t, int x, int y, float factor) {
    if (!t.factors.known && t.factors.at) t.factors.at[y * t.factors.stride + x] = factor;
}

// The Haar window source (gpu/cascade_kernels.cuh): a tree reads 8 or 12 corners a node, which the L1 cache
// serves. With the default compaction points (gpu/haar_gpu_detector.hpp: groups end at frontalface_default's
// trees 9, 25, 84, 189, 406, 2913) a thread per window in groups 0-2, 8 lanes of a warp per survivor in group 3,
// a warp per survivor in group 4 and a block of 256 threads per survivor in group 5, the teams adding a stage's
// responses side by side where the cascade's sums are exact in any order (common/haar_eval.hpp
// exact_stage_sums; every OpenCV Haar cascade). Group 3 (stages 4-5 over 2.6% of the windows at 1080p) was
// too few threads to fill the GPU, each walking some 100 trees: 8 lanes took it from 0.173 to 0.135 ms
// (docs/benchmarks.md: teams in groups 1-2 cost more than they save, and 4 or 16 lanes beside them were slower;
// frontalface_alt2's group 3, 7% of its windows, was slower with 8 lanes). Group 5 is the few windows
// that go deep: a warp took a stage of up to 211 trees in seven rounds, one after another for the deepest
// windows (0.53 ms of 1.58 for trees 189-2913 at 1080p); a block takes it in one (0.21 ms for groups 4 and 5).
// Groups 0-2 read the model's first stages from constant memory (c_nodes above) where they end within them.
// Measured and left out (docs/benchmarks.md): a warp per survivor from group 1 (group 1 0.12 -> 0.8 ms) or 2-3,
// tiles of the tables in shared memory copied per block as the LBP source's (first group 0.19 -> 0.33 ms), each
// warp's window staged in shared memory (no faster: the deep groups wait on their chain of dependent loads,
// not on the L1 cache). kTilted: whether the cascade has tilted features (run_haar_cascade); without, its windows
// skip each feature's test of its kind, a uniform branch around each rectangle's corners: groups 0-2 at 1080p
// 0.177 / 0.108 / 0.167 -> 0.165 / 0.095 / 0.150 ms (docs/benchmarks.md).
template <bool kTilted>
struct HaarSource : FamilyWindows<HaarFamily> {
    static constexpr int kFirstTeamGroup = 3, kTeamLanes = 8;
    static constexpr int kFirstWarpGroup = 4;
    static constexpr int kFirstBlockGroup = 5;
    static constexpr int kSharedThreads = 256;
    static constexpr int kSharedMinBlocks = 2;

    HaarPlanes planes;
    int tile_pitch;   // nothing is tiled: the shared-memory strategy's bank order is immaterial
    bool exact_sums;  // planes.exact_sums: warps and blocks add a stage's responses side by side
    int constant_stages;  // planes.constant_stages: groups ending by then may read constant_view()

    __device__ __forceinline__ View view() const {
        View v = view_over<View>(planes.stages, planes.weaks);
        v.nodes = planes.nodes;
        v.leaves = planes.leaves;
        return v;
    }
    // The same model for stages [0, constant_stages), read from constant memory (gpu/cascade_group.cuh
    // with_thread_view).
    __device__ __forceinline__ View constant_view() const {
        View v = view_over<View>(c_stages, c_weaks);
        v.nodes = c_nodes;
        v.leaves = c_leaves;
        return v;
    }
    __device__ __forceinline__ HaarTable table(const std::uint32_t* base, const GpuLevel& l) const {
        return {base + l.integral_offset, l.integral_stride};
    }
    __device__ __forceinline__ HaarTables<kTilted> tables(const GpuLevel& l, bool factors_known) const {
        const HaarTable sums = table(planes.sums, l);  // in place of tilted when no feature reads it
        return {sums, table(planes.squares, l), planes.tilted ? table(planes.tilted, l) : sums,
                {planes.factors + l.integral_offset, l.integral_stride, factors_known}};
    }
    // Survivors: their factors were kept by the first group (or the shared-memory strategy's block).
    __device__ __forceinline__ HaarTables<kTilted> level(const GpuLevel& l) const { return tables(l, true); }
    __device__ __forceinline__ HaarTables<kTilted> block(const GpuLevel& l, int, int, int, std::uint32_t*) const {
        return tables(l, false);
    }
};

}  // namespace

void run_haar_cascade(const HaarPlanes& p, const CascadeTarget& t, const std::vector<int>& ends, Compaction compaction,
                      cudaStream_t stream, KernelTimer& timer) {
    const KernelTuning tuning{0, 0, -1, 0};
    const CascadeShape shape{p.window, p.policy, t.num_stages};
    if (p.tilted)
        launch_cascade(HaarSource<true>{{shape}, p, 1, p.exact_sums, p.constant_stages}, t, tuning, ends, compaction,
                       stream, timer);
    else
        launch_cascade(HaarSource<false>{{shape}, p, 1, p.exact_sums, p.constant_stages}, t, tuning, ends,
                       compaction, stream, timer);
}

HaarConstantPrefix haar_constant_prefix(const HaarCascade& cascade) {
    HaarConstantPrefix prefix;
    for (const Stage& stage : cascade.stages) {
        if (prefix.stages == kHaarConstantStages || stage.first + stage.count > kHaarConstantTrees) break;
        int nodes = prefix.nodes, leaves = prefix.leaves;
        for (int t = stage.first; t < stage.first + stage.count; ++t) {
            const HaarTree& tree = cascade.weaks[static_cast<std::size_t>(t)];
            nodes = std::max(nodes, tree.first_node + tree.node_count);
            leaves = std::max(leaves, tree.first_leaf + tree.node_count + 1);
        }
        if (nodes > kHaarConstantNodes || leaves > kHaarConstantLeaves) break;
        prefix = {prefix.stages + 1, stage.first + stage.count, nodes, leaves};
    }
    return prefix;
}

void upload_haar_constants(const HaarCascade& cascade, const HaarConstantPrefix& prefix, cudaStream_t stream) {
    const auto copy = [&](const auto& symbol, const auto& source, int count) {
        if (count > 0)
            CASCADE_CUDA_CHECK(cudaMemcpyToSymbolAsync(symbol, source.data(), count * sizeof(source[0]), 0,
                                                       cudaMemcpyHostToDevice, stream));
    };
    copy(c_stages, cascade.stages, prefix.stages);
    copy(c_weaks, cascade.weaks, prefix.trees);
    copy(c_nodes, cascade.nodes, prefix.nodes);
    copy(c_leaves, cascade.leaves, prefix.leaves);
}

}  // namespace cascade::gpu
