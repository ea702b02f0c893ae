// The cascade kernels of every feature family, templated on a window source, as CUB's block primitives take
// their algorithm as a template parameter; and launch_cascade, which runs them for one compaction strategy.
// A family's .cu file defines its sources beside its constant memory and instantiates launch_cascade with them
// (gpu/lbp_cascade_gpu.cu, gpu/hog_cascade_gpu.cu). The windows are evaluated by common/cascade_eval.hpp's
// run_stages, the CPU reference's code: these kernels only decide which thread evaluates which window and stages.
//
// A window source is a trivially copyable struct the kernels take by value, built on its feature family F
// (common/feature_family.hpp, the CPU scan's concept): a FamilyWindows<F> (gpu/cascade_group.cuh: the cascade's
// window, sum policy and stage count, F::View, and window_at giving F::Window over any sampler) with:
//   static constexpr int kFirstWarpGroup;    the first compaction group whose survivors are evaluated one warp per
//                                            window, the lanes computing one stage's weak learners side by side
//                                            (gpu/warp_responses.cuh bounded to the stage); the groups before it
//                                            one thread per survivor. HoG 1 (81 corner reads and a division per
//                                            weak learner); Haar its late groups (a cheap first stage over many
//                                            survivors, thousands of trees over few). kNoWarpGroup (LBP): never;
//                                            in the shared-memory strategy a warp per window only for its last
//                                            few, the lanes computing past the stage.
//   static constexpr int kFirstTeamGroup, kTeamLanes;  from this group on (below kFirstWarpGroup) kTeamLanes
//                                            lanes of a warp per survivor (2-16; gpu/warp_responses.cuh LaneTeam):
//                                            Haar's group of stages 4-5, some 100 trees over 2.6% of the windows,
//                                            too few threads one per window to fill the GPU, each a long chain of
//                                            dependent loads (kNoWarpGroup: never). kTeamLanes kLanesFromCount:
//                                            every group after the first with as many lanes (1-32) as its
//                                            survivor count and stage lengths make best (lanes_for, on the
//                                            device; the covariance family), kFirstWarpGroup and kFirstBlockGroup
//                                            then only concern the shared-memory strategy; with kFirstTeamGroup
//                                            0 the first group too, on every window position as a list
//                                            (EveryPosition) instead of in tiles
//   static constexpr int kFirstBlockGroup;   from this group on (at least kFirstWarpGroup) a block of 256 threads
//                                            per survivor, computing a stage side by side: Haar's last group, the
//                                            few windows that go deep, a stage of up to 211 trees in one step
//                                            instead of seven (kNoWarpGroup: never; the shared-memory strategy
//                                            keeps to warps)
//   bool exact_sums;                         optional: the cascade adds each stage to the same double in any
//                                            order (common/haar_eval.hpp exact_stage_sums), so a warp or block
//                                            adds a stage's responses side by side (gpu/warp_responses.cuh)
//   static constexpr int kSharedThreads, kSharedMinBlocks;  the shared-memory strategy's block (launch bounds)
//   int tile_pitch;                          row pitch in words of what block() reads: orders the shared-memory
//                                            strategy's lists by bank (any value keeps them correct)
//   __device__ View view() const;            built in the kernel over the family's __constant__ arrays, so that
//                                            the compiler emits constant-cache loads (broadcasts to a warp)
//   __device__ auto block(const GpuLevel& l, int gx0, int gy0, int rows, std::uint32_t* smem) const;
//       what the windows at grid positions [gx0, gx0 + kTileWidth) x [gy0, gy0 + rows) of level l read; every
//       thread of the block calls it (it may fill `smem` and synchronise)
//   __device__ auto level(const GpuLevel& l) const;  what a survivor of level l reads
//   window_at(view, sampler, x, y)           F::Window at (x, y) of a sampler that block() or level() returned (it
//                                            may keep references); a source may give a faster form of it for its
//                                            own samplers (LBP: TileWindow over tiles, common/lbp_tables.hpp)
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "gpu/cascade_target.hpp"
#include "gpu/compaction.cuh"
#include "gpu/cuda_check.hpp"
#include "gpu/detector_types.hpp"
#include "gpu/kernel_timer.hpp"
#include "gpu/cascade_group.cuh"
#include "gpu/level_lookup.cuh"
#include "gpu/shared_lists.cuh"
#include "gpu/skip_rule_gpu.hpp"
#include "gpu/survivor_inputs.cuh"

namespace cascade::gpu {

// The first group [0, end) on every window position of one 32 x 8 tile, one thread each.
template <class Source, class Compactor>
__global__ void __launch_bounds__(kFirstGroupThreads)
    first_group_kernel(Source src, LevelsRef lv, int end, std::uint8_t* stage0_rejected, ListRef out) {
    __shared__ typename Compactor::TempStorage temp;
    const int li = find_level(lv.levels, lv.count, blockIdx.x, &GpuLevel::first_tile);
    const GpuLevel l = lv.levels[li];
    const int t = blockIdx.x - l.first_tile;
    const int gx0 = (t % l.tiles_x) * kTileWidth, gy0 = (t / l.tiles_x) * kTileRows;
    const int gx = gx0 + threadIdx.x % kTileWidth, gy = gy0 + threadIdx.x / kTileWidth;
    const auto sampler = src.block(l, gx0, gy0, kTileRows, reinterpret_cast<std::uint32_t*>(dynamic_smem));
    Survivor s{};
    bool survives = false;
    if (gx < l.grid_width && gy < l.grid_height) {
        s = {static_cast<std::uint16_t>(gx * l.step), static_cast<std::uint16_t>(gy * l.step), li, 0.0};
        int reached = 0;
        with_thread_view(src, end, [&](const typename Source::View& view) {
            reached = run_group(src, view, sampler, s.x, s.y, 0, end, s.sum);
        });
        survives = goes_on(reached, end, s);
        if (stage0_rejected) stage0_rejected[l.first_position + gy * l.grid_width + gx] = reached == 0;
    }
    Compactor::push(temp, survives, s, out.list, out.count);
}

// kLanes for survivor_kernel: lanes per survivor chosen on the device from the survivor count (lanes_for), one
// kernel for every width (RuntimeLaneTeam).
constexpr int kLanesFromCount = 0;

// Whether `lanes` threads split a warp evenly. A function, because nvcc warns of the modulo by zero in the
// static_assert below for kLanesFromCount (0) although || never evaluates it.
__host__ __device__ constexpr bool divides_warp(int lanes) { return lanes > 0 && lanes <= 32 && 32 % lanes == 0; }

// Group [begin, end) on n windows of `in` (SurvivorList, EveryPosition), a fixed grid looping over them (their
// number is only known on the device): `lanes` threads per window (kLanes, or lanes_for's): one, a team of that
// many lanes of a warp, or the block; the first of them offers it to the compactor.
template <class Source, class Compactor, int kLanes, class Input>
__device__ __forceinline__ void run_survivors(const Source& src, const typename Source::View& view, const LevelsRef& lv,
                                              int begin, int end, const Input& in, int n, int lanes, const ListRef& out,
                                              typename Compactor::TempStorage& temp, double* responses) {
    static_assert(kLanes == kLanesFromCount || kLanes == 1 || divides_warp(kLanes) || kLanes == kFirstGroupThreads,
                  "a thread, a part of a warp, a warp or the block");
    const int per_block = kFirstGroupThreads / lanes;
    for (int first = blockIdx.x * per_block; first < n; first += gridDim.x * per_block) {  // uniform per block
        const int i = first + static_cast<int>(threadIdx.x) / lanes;
        Survivor s{};
        bool survives = false;
        if (i < n) {  // uniform per survivor's lanes
            s = in.at(lv, i);
            if (!in.visits(lv, s)) {
                // dropped: OpenCV's scan skips its position
            } else if (s.level & kAcceptedEarly) {
                survives = true;
                if (end == view.num_stages) s.level &= ~kAcceptedEarly;
            } else {
                const auto sampler = src.level(lv.levels[s.level]);
                int reached = 0;
                if constexpr (kLanes == 1)
                    with_thread_view(src, end, [&](const typename Source::View& v) {
                        reached = run_group(src, v, sampler, s.x, s.y, begin, end, s.sum);
                    });
                else if constexpr (kLanes == kLanesFromCount)
                    reached = run_group_team(src, view, sampler, s.x, s.y, begin, end, s.sum,
                                             RuntimeLaneTeam{lanes, exact_sums(src)});
                else if constexpr (kLanes <= 32)
                    reached = run_group_team(src, view, sampler, s.x, s.y, begin, end, s.sum,
                                             LaneTeam<kLanes>{exact_sums(src)});
                else
                    reached = run_group_team(src, view, sampler, s.x, s.y, begin, end, s.sum,
                                             BlockTeam<kLanes>{responses, exact_sums(src)});
                survives = goes_on(reached, end, s);
                if (threadIdx.x % lanes == 0) in.record(i, reached);
            }
        }
        Compactor::push(temp, survives && threadIdx.x % lanes == 0, s, out.list, out.count);
    }
}

// Lanes per survivor (1, 2, 4, ... 32) for stages [begin, end) on n survivors, `threads` of them resident: the
// fewest rounds of weak learners, a round being one weak learner on every resident thread. n * lanes / threads
// rounded up is how often each thread takes a survivor, and the team computes a stage of c weak learners in
// c / lanes rounded up (WarpResponses stops at the stage's end); the fewest lanes among equals. A thread per
// survivor leaves most of the GPU idle where survivors are a little over one thread each or far fewer, a warp
// wastes most of its lanes on a stage of a few weak learners.
template <class View>
__device__ __forceinline__ int lanes_for(const View& view, int begin, int end, int n, int threads) {
    int best = 1;
    long long best_rounds = -1;
    for (int lanes = 1; lanes <= 32; lanes *= 2) {
        long long per_survivor = 0;
        for (int s = begin; s < end; ++s) per_survivor += (view.stages[s].count + lanes - 1) / lanes;
        const long long rounds = (static_cast<long long>(n) * lanes + threads - 1) / threads * per_survivor;
        if (best_rounds < 0 || rounds < best_rounds) {
            best = lanes;
            best_rounds = rounds;
        }
    }
    return best;
}

// run_survivors with kLanes threads per window, or with lanes_for's (kLanesFromCount: the same in every block,
// from the number of windows).
template <class Source, class Compactor, int kLanes, class Input = SurvivorList>
__global__ void __launch_bounds__(kFirstGroupThreads) survivor_kernel(Source src, LevelsRef lv, int begin, int end,
                                                                      Input in, ListRef out) {
    __shared__ typename Compactor::TempStorage temp;
    __shared__ double responses[kLanes == kFirstGroupThreads ? kLanes : 1];  // the block's (BlockTeam)
    const int n = in.size(lv);
    const typename Source::View view = src.view();
    const int lanes = kLanes != kLanesFromCount
                          ? kLanes
                          : lanes_for(view, begin, end, n, static_cast<int>(gridDim.x) * kFirstGroupThreads);
    run_survivors<Source, Compactor, kLanes>(src, view, lv, begin, end, in, n, lanes, out, temp, responses);
}

// Blocks of a kernel that loops over survivors: as many as every multiprocessor holds at once (its occupancy),
// once per instantiation. A fixed 8 per multiprocessor made the LBP hybrid and prefix-sum strategies 6-7% slower
// at 1080p (docs/benchmarks.md).
template <class Kernel>
int resident_blocks(Kernel kernel) {
    int device = 0, sms = 0, per_sm = 0;
    CASCADE_CUDA_CHECK(cudaGetDevice(&device));
    CASCADE_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    CASCADE_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kFirstGroupThreads, 0));
    return sms * std::max(per_sm, 1);
}

// Kernel attributes are per device, and detectors on several threads launch at once: the records of what was
// set are keyed by (device, kernel) and guarded by one lock.
struct KernelSettings {
    std::mutex mutex;
    std::map<std::pair<int, const void*>, int> value;
};

template <class Kernel>
int& kernel_setting(KernelSettings& settings, Kernel kernel, int initial) {
    int device = 0;
    CASCADE_CUDA_CHECK(cudaGetDevice(&device));
    return settings.value.try_emplace({device, reinterpret_cast<const void*>(kernel)}, initial).first->second;
}

// Dynamic shared memory above the default 48 KB must be allowed per kernel (kernels of one signature share a
// pointer type, so the record is keyed by the kernel's address).
template <class Kernel>
void allow_shared_memory(Kernel kernel, int bytes) {
    static KernelSettings allowed;
    const std::lock_guard<std::mutex> lock(allowed.mutex);
    int& a = kernel_setting(allowed, kernel, -1);
    if (a < 0) {  // without opting in, static and dynamic shared memory share 48 KB
        cudaFuncAttributes attributes{};
        CASCADE_CUDA_CHECK(cudaFuncGetAttributes(&attributes, kernel));
        a = 48 * 1024 - static_cast<int>(attributes.sharedSizeBytes);
    }
    if (bytes <= a) return;
    CASCADE_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
    a = bytes;
}

// The shared-memory strategy's preferred split of L1 and shared memory (kept per kernel; -1: untouched).
template <class Kernel>
void prefer_carveout(Kernel kernel, int percent) {
    static KernelSettings set;
    const std::lock_guard<std::mutex> lock(set.mutex);
    int& current = kernel_setting(set, kernel, -1);
    if (percent < 0 || percent == current) return;
    CASCADE_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout, percent));
    current = percent;
}

// Group [begin, end) of a compacting strategy on the survivors `in` of the group before.
template <class Source, class Compactor, int kLanes>
void launch_survivors(const Source& src, const LevelsRef& lv, int begin, int end, const SurvivorList& in,
                      const ListRef& out, cudaStream_t stream) {
    const auto kernel = survivor_kernel<Source, Compactor, kLanes>;
    static const int blocks = resident_blocks(kernel);
    kernel<<<blocks, kFirstGroupThreads, 0, stream>>>(src, lv, begin, end, in, out);
    CASCADE_CUDA_CHECK(cudaGetLastError());
}

// Whether a source's groups take lanes_for's lanes (kTeamLanes kLanesFromCount).
template <class Source>
constexpr bool lanes_from_count() {
    if constexpr (Source::kFirstTeamGroup < kNoWarpGroup)
        return Source::kTeamLanes == kLanesFromCount;
    else
        return false;
}

// Group g of a compacting strategy: the source's lanes per survivor for it (a source's kFirst*Group constants;
// kNoWarpGroup: never, so no kernel of that kind is instantiated for it; kLanesFromCount: lanes_for's, one
// kernel).
template <class Source, class Compactor>
void launch_group(const Source& src, const LevelsRef& lv, const std::vector<int>& ends, std::size_t g,
                  const SurvivorList& in, const ListRef& out, cudaStream_t stream) {
    const int group = static_cast<int>(g), begin = ends[g - 1], end = ends[g];
    if constexpr (lanes_from_count<Source>()) {
        launch_survivors<Source, Compactor, kLanesFromCount>(src, lv, begin, end, in, out, stream);
    } else {
        if constexpr (Source::kFirstBlockGroup < kNoWarpGroup)
            if (group >= Source::kFirstBlockGroup)
                return launch_survivors<Source, Compactor, kFirstGroupThreads>(src, lv, begin, end, in, out, stream);
        if constexpr (Source::kFirstWarpGroup < kNoWarpGroup)
            if (group >= Source::kFirstWarpGroup)
                return launch_survivors<Source, Compactor, 32>(src, lv, begin, end, in, out, stream);
        if constexpr (Source::kFirstTeamGroup < kNoWarpGroup)
            if (group >= Source::kFirstTeamGroup)
                return launch_survivors<Source, Compactor, Source::kTeamLanes>(src, lv, begin, end, in, out, stream);
        launch_survivors<Source, Compactor, 1>(src, lv, begin, end, in, out, stream);
    }
}

// The first-group kernel, then one survivor kernel per later group, compacting through `Compactor`;
// drop_unvisited: the visited positions worked out after the first group, the second dropping the others.
template <class Source, class Compactor>
void launch_compacting(const Source& src, const CascadeTarget& t, const KernelTuning& tuning,
                       const std::vector<int>& ends, bool drop_unvisited, const char* name, cudaStream_t stream,
                       KernelTimer& timer) {
    const LevelsRef lv{t.levels, t.num_levels};
    timer.begin(std::string(name) + "/0", stream);
    if (t.tiles > 0) {
        if constexpr (lanes_from_count<Source>() && Source::kFirstTeamGroup == 0) {
            const auto first = survivor_kernel<Source, Compactor, Source::kTeamLanes, EveryPosition>;
            static const int blocks = resident_blocks(first);
            first<<<blocks, kFirstGroupThreads, 0, stream>>>(src, lv, 0, ends[0], {t.stage0_rejected},
                                                             {t.lists[0], &t.counts[0]});
        } else {
            const auto first = first_group_kernel<Source, Compactor>;
            allow_shared_memory(first, tuning.first_group_bytes);
            first<<<t.tiles, kFirstGroupThreads, tuning.first_group_bytes, stream>>>(
                src, lv, ends[0], t.stage0_rejected, {t.lists[0], &t.counts[0]});
        }
    }
    CASCADE_CUDA_CHECK(cudaGetLastError());
    timer.end(stream);
    if (drop_unvisited)
        resolve_skips({t.levels, t.num_levels, t.grid_rows, t.stage0_rejected, t.visited}, stream, timer);
    for (std::size_t g = 1; g < ends.size(); ++g) {
        timer.begin(std::string(name) + "/" + std::to_string(g), stream);
        const SurvivorList in{t.lists[(g - 1) % 2], &t.counts[g - 1], drop_unvisited && g == 1 ? t.visited : nullptr};
        launch_group<Source, Compactor>(src, lv, ends, g, in, {t.lists[g % 2], &t.counts[g]}, stream);
        timer.end(stream);
    }
}

// The shared-memory strategy alone (a source whose windows only blocks can read: no level()).
template <class Source>
void launch_shared_lists(const Source& src, const CascadeTarget& t, const KernelTuning& tuning,
                         const std::vector<int>& ends, cudaStream_t stream, KernelTimer& timer) {
    GroupEnds groups{static_cast<int>(ends.size()), {}};
    for (std::size_t g = 0; g < ends.size(); ++g) groups.end[g] = ends[g];
    const int last = groups.count - 1;
    const auto kernel = shared_lists_kernel<Source>;
    const int smem = shared_list_bytes(t.policy) + tuning.shared_tile_bytes;
    allow_shared_memory(kernel, smem);
    prefer_carveout(kernel, tuning.carveout);
    timer.begin("cascade_shared", stream);
    if (t.shared_tiles > 0)
        kernel<<<t.shared_tiles, Source::kSharedThreads, smem, stream>>>(
            src, {t.levels, t.num_levels}, groups, tuning.warp_tail, t.stage0_rejected, t.lists[last % 2], t.counts);
    CASCADE_CUDA_CHECK(cudaGetLastError());
    timer.end(stream);
}

// requires: compaction concrete (not automatic); group_ends as group_ends() returns (none: {num_stages}), at
//           most kMaxGroups; the family's model in constant memory; counts zeroed.
// ensures:  counts[g] = windows that passed every group up to g (none: only counts[last]); the accepted
//           windows in lists[last % 2], their number in counts[last] (last = group_ends.size() - 1); with
//           stage0_rejected and drops_unvisited_early(compaction, groups): t.visited written and, from group 1
//           on, only windows at visited positions.
template <class Source>
void launch_cascade(const Source& src, const CascadeTarget& t, const KernelTuning& tuning,
                    const std::vector<int>& group_ends, Compaction compaction, cudaStream_t stream,
                    KernelTimer& timer) {
    if (group_ends.empty() || group_ends.size() > static_cast<std::size_t>(kMaxGroups))
        throw std::logic_error("launch_cascade: between 1 and " + std::to_string(kMaxGroups) + " groups of stages");
    const auto& ends = group_ends;
    const bool early = t.stage0_rejected && drops_unvisited_early(compaction, ends.size());
    switch (compaction) {
        case Compaction::none:
            return launch_compacting<Source, GlobalAtomicCompactor>(src, t, tuning, ends, false, "cascade_none",
                                                                    stream, timer);
        case Compaction::global_atomic:
            return launch_compacting<Source, GlobalAtomicCompactor>(src, t, tuning, ends, early, "cascade_global",
                                                                    stream, timer);
        case Compaction::hybrid:
            return launch_compacting<Source, SharedCounterCompactor>(src, t, tuning, ends, early, "cascade_hybrid",
                                                                     stream, timer);
        case Compaction::prefix_sum:
            return launch_compacting<Source, BlockScanCompactor<kFirstGroupThreads>>(src, t, tuning, ends, early,
                                                                                    "cascade_prefix", stream, timer);
        case Compaction::shared_atomic: return launch_shared_lists(src, t, tuning, ends, stream, timer);
        case Compaction::automatic: break;
    }
    throw std::logic_error("launch_cascade: no concrete compaction strategy");
}

}  // namespace cascade::gpu
