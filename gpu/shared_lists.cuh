// The shared-memory strategy, for every window source (gpu/cascade_kernels.cuh says what one is): one block of
// Source::kSharedThreads takes a 32 x 32 tile of positions through every group of stages. Between groups its
// survivors are listed in shared memory as tile positions (kAcceptedIndex set: a window accepted early, passed
// on unevaluated); a model's running sum stays at the window's position. Accepted windows go straight to the
// output list (one global atomic per warp).
//
// The order of each list sets the cost of the next group: the 32 windows of a warp read their corners at the
// same offsets from their origins, so windows whose origins lie in one shared-memory bank (their bank class)
// make every corner load take one more wavefront. Survivors cluster, and a list in position order cost 2.2
// wavefronts per load in the later groups where one would do. So each survivor takes a rank from a shared
// counter of its class, and the list holds rank 0 of every class, then rank 1, ...: a warp's windows then share
// a bank only where its 32 entries straddle two ranks (1.6 wavefronts per load; docs/benchmarks.md).
// Every class has 32 positions in a tile (one in each row), so a rank fits 5 bits of the entry while a group
// runs. Each thread ranks the survivors of its own slots in place, so a group needs no barrier until its
// survivors are ordered into the other list.
// From the source's kFirstWarpGroup on, or once a group leaves at most `warp_tail` survivors, the rest of the
// cascade runs one warp per survivor (WarpResponses) instead of one thread: a handful of windows would otherwise
// take their remaining weak learners one after another in a thread or two while the block's other warps wait at
// its barriers.
#pragma once

#include <cstdint>
#include <type_traits>
#include <utility>

#include "gpu/cascade_group.cuh"
#include "gpu/level_lookup.cuh"

namespace cascade::gpu {

constexpr int kSharedList = kSharedTileRows * kTileWidth;  // positions of a block, entries of a list
constexpr std::uint16_t kPositionBits = kSharedList - 1;
constexpr int kRankShift = 10;  // while a group's survivors are ranked: bits 10..14 of an entry
constexpr std::uint16_t kRankBits = 31 << kRankShift;
constexpr std::uint16_t kAcceptedIndex = 0x8000;
static_assert(kSharedList == 1 << kRankShift && kTileWidth == 32, "a tile index takes the low 10 bits");

// Bytes of the two survivor lists (tile indices), then of the running sums by position for a model that
// carries them between stages (SumPolicy::running; with per_stage sums every stage starts from zero).
__host__ __device__ inline int shared_list_bytes(SumPolicy policy) {
    return kSharedList *
           static_cast<int>(2 * sizeof(std::uint16_t) + (policy == SumPolicy::running ? sizeof(double) : 0));
}

// Whether a source evaluates two windows of `Sampler` side by side (window_pair_at: LBP over integral tiles).
template <class Source, class Sampler, class = void>
struct HasWindowPairs : std::false_type {};
template <class Source, class Sampler>
struct HasWindowPairs<Source, Sampler,
                      std::void_t<decltype(std::declval<const Source&>().window_pair_at(
                          std::declval<const Sampler&>(), 0, 0))>> : std::true_type {};

// One block's lists and counters (shared memory) and its tile's place in the level. Every member function is
// called by every thread of the block (or, where it says so, by every lane of a warp).
template <class Source>
struct SharedLists {
    static constexpr int kThreads = Source::kSharedThreads;
    static constexpr int kWarps = kThreads / 32;
    static_assert(kSharedList / kThreads <= 32, "a thread's slots fit one bit mask");

    std::uint16_t* lists;    // two lists of kSharedList entries: the group's at `list`, the next at the other
    double* sums;            // by position (carry_sums)
    int* count;              // [kMaxGroups]: survivors of each group in this block
    unsigned* class_count;   // [32]: survivors of the group so far, per bank class
    unsigned* rank_classes;  // [32]: the classes with a survivor of rank k
    int* rank_first;         // [32]: the list slot of rank k's first survivor
    Survivor* accepted;      // the output list
    int* counts;             // the frame's counters; counts[last] counts `accepted`
    GpuLevel l;
    int li, gx0, gy0, last, lane, tile_pitch;
    bool carry_sums;
    int list = 0;

    __device__ __forceinline__ int x_of(int entry) const {
        return (gx0 + (entry & kPositionBits) % kTileWidth) * l.step;
    }
    __device__ __forceinline__ int y_of(int entry) const {
        return (gy0 + (entry & kPositionBits) / kTileWidth) * l.step;
    }
    // The bank of the window's origin in the tile, for one step: windows of one class conflict.
    __device__ __forceinline__ int bank_class(int entry) const {
        const int p = entry & kPositionBits;
        return static_cast<int>(static_cast<unsigned>(p / kTileWidth * tile_pitch + p % kTileWidth) % 32);
    }

    // Accepted windows to the output; called by every lane of a warp.
    __device__ __forceinline__ void emit(bool on, std::uint16_t entry, double sum) const {
        const unsigned mask = __ballot_sync(0xffffffffu, on);
        if (mask == 0) return;
        int base = lane == 0 ? atomicAdd(&counts[last], __popc(mask)) : 0;
        base = __shfl_sync(0xffffffffu, base, 0) + __popc(mask & ((1u << lane) - 1));
        if (on)
            accepted[base] = {static_cast<std::uint16_t>(x_of(entry)), static_cast<std::uint16_t>(y_of(entry)), li,
                              sum};
    }

    // A survivor of group g in the thread's slot i: to the output after the last group; otherwise ranked in its
    // class, in place, and marked in `kept`. Called by every lane of a warp.
    __device__ __forceinline__ void keep(bool on, int g, int i, std::uint16_t entry, double sum, unsigned& kept) const {
        if (g == last) return emit(on, entry, sum);
        if (!on) return;
        lists[list + i] =
            static_cast<std::uint16_t>(entry | atomicAdd(&class_count[bank_class(entry)], 1u) << kRankShift);
        if (carry_sums) sums[entry & kPositionBits] = sum;
        kept |= 1u << (static_cast<unsigned>(i) / kThreads);  // unsigned: a shift, no sign fix-up
    }

    // Lists group g's ranked survivors (the slots marked in each thread's `kept`) by (rank, class) for the next
    // group, and sets count[g]. It synchronises.
    __device__ __forceinline__ void order(int g, unsigned kept) {
        __syncthreads();
        if (threadIdx.x < 32) {
            const unsigned have = class_count[lane];
            class_count[lane] = 0;
            int first = 0;
            for (unsigned k = 0; k < 32; ++k) {  // uniform: ends after the highest rank
                const unsigned classes = __ballot_sync(0xffffffffu, have > k);
                if (classes == 0) break;
                if (lane == k) {
                    rank_classes[k] = classes;
                    rank_first[k] = first;
                }
                first += __popc(classes);
            }
            if (lane == 0) count[g] = first;
        }
        __syncthreads();
        for (; kept != 0; kept &= kept - 1) {
            const std::uint16_t entry = lists[list + threadIdx.x + (__ffs(kept) - 1) * kThreads];
            const int k = (entry & kRankBits) >> kRankShift;
            lists[(list ^ kSharedList) + rank_first[k] + __popc(rank_classes[k] & ((1u << bank_class(entry)) - 1))] =
                entry & ~kRankBits;
        }
        __syncthreads();
        list ^= kSharedList;
    }

    // Group 0 on every position of the tile, one thread each; returns the thread's kept slots.
    template <class View, class Sampler>
    __device__ __forceinline__ unsigned first_group(const Source& src, const View& view, const Sampler& sampler,
                                                    int end, std::uint8_t* stage0_rejected) const {
        if constexpr (HasWindowPairs<Source, Sampler>::value)
            if (l.step == 1) return first_group_pairs(src, view, sampler, end, stage0_rejected);
        unsigned kept = 0;
#pragma unroll 1
        for (int p = threadIdx.x; p < kSharedList; p += kThreads) {
            const int gx = gx0 + p % kTileWidth, gy = gy0 + p / kTileWidth;
            bool on = gx < l.grid_width && gy < l.grid_height;
            double sum = 0.0;
            int reached = 0;
            if (on) {
                reached = run_group(src, view, sampler, gx * l.step, gy * l.step, 0, end, sum);
                if (stage0_rejected) stage0_rejected[l.first_position + gy * l.grid_width + gx] = reached == 0;
                on = reached >= end;
            }
            keep(on, 0, p, static_cast<std::uint16_t>(p | (reached > end ? kAcceptedIndex : 0)), sum, kept);
        }
        return kept;
    }

    // first_group with two windows side by side per thread, positions p and p + 1 (p even; step 1, so the right
    // window's corners are one element to the right of the left one's): one weak-learner record, one set of
    // corner addresses and one load of the stump's leaves for both. A warp's 16 pairs of one row and 16 of the
    // next hit 32 banks (odd tile pitch). Its slots are first_group's: the windows of round k in slots 2k, 2k + 1.
    template <class View, class Sampler>
    __device__ __forceinline__ unsigned first_group_pairs(const Source& src, const View& view, const Sampler& sampler,
                                                          int end, std::uint8_t* stage0_rejected) const {
        static_assert(kSharedList % (2 * kThreads) == 0 && kTileWidth % 2 == 0, "whole pairs, in one row");
        unsigned kept = 0;
#pragma unroll 1
        for (int k = 0; k < kSharedList / (2 * kThreads); ++k) {
            const unsigned p = 2 * (threadIdx.x + k * kThreads);
            const int gx = gx0 + static_cast<int>(p % kTileWidth), gy = gy0 + static_cast<int>(p / kTileWidth);
            bool on[2] = {gy < l.grid_height && gx < l.grid_width, gy < l.grid_height && gx + 1 < l.grid_width};
            double sum[2] = {0.0, 0.0};
            int reached[2] = {0, 0};
            if (on[1])
                run_stages_pair(view, src.window_pair_at(sampler, gx, gy), 0, end, sum, reached);
            else if (on[0])  // the grid's last column
                reached[0] = run_group(src, view, sampler, gx, gy, 0, end, sum[0]);
#pragma unroll
            for (int w = 0; w < 2; ++w) {
                if (on[w]) {
                    if (stage0_rejected)
                        stage0_rejected[l.first_position + gy * l.grid_width + gx + w] = reached[w] == 0;
                    on[w] = reached[w] >= end;
                }
                keep(on[w], 0, static_cast<int>(threadIdx.x) + (2 * k + w) * kThreads,
                     static_cast<std::uint16_t>((p + w) | (reached[w] > end ? kAcceptedIndex : 0)), sum[w], kept);
            }
        }
        return kept;
    }

    // Group g on the list, one thread per survivor; returns the thread's kept slots.
    template <class View, class Sampler>
    __device__ __forceinline__ unsigned thread_group(const Source& src, const View& view, const Sampler& sampler,
                                                     const GroupEnds& groups, int g) const {
        const int n = count[g - 1];
        unsigned kept = 0;
        for (int first = 0; first < n; first += kThreads) {  // uniform per block
            const int i = first + threadIdx.x;
            bool on = i < n;
            std::uint16_t entry = on ? lists[list + i] : 0;
            double sum = on && carry_sums ? sums[entry & kPositionBits] : 0.0;
            if (on && !(entry & kAcceptedIndex)) {
                const int reached =
                    run_group(src, view, sampler, x_of(entry), y_of(entry), groups.end[g - 1], groups.end[g], sum);
                on = reached >= groups.end[g];
                if (reached > groups.end[g]) entry |= kAcceptedIndex;
            }
            keep(on, g, i, entry, sum, kept);
        }
        return kept;
    }

    // Groups g.. to the end, one warp per survivor of group g - 1; only counters and the output are written, so
    // the list stays as read. It synchronises.
    template <class View, class Sampler>
    __device__ __forceinline__ void finish_by_warps(const Source& src, const View& view, const Sampler& sampler,
                                              const GroupEnds& groups, int g) const {
        const int n = count[g - 1];
        for (int i = threadIdx.x / 32; i < n; i += kWarps) {  // uniform per warp
            std::uint16_t entry = lists[list + i];
            double sum = carry_sums ? sums[entry & kPositionBits] : 0.0;
            using Window = decltype(src.window_at(view, sampler, 0, 0));
            // Lanes compute past the stage unless a weak learner is too costly to compute speculatively.
            const WarpResponses<Window> responses{src.window_at(view, sampler, x_of(entry), y_of(entry)),
                                                  weak_count(view),
                                                  Source::kFirstWarpGroup < kNoWarpGroup ? view.stages : nullptr,
                                                  WarpTeam{exact_sums(src)}};
            int h = g;
            for (; h <= last; ++h) {
                if (!(entry & kAcceptedIndex)) {
                    const int reached = run_stages(view, responses, groups.end[h - 1], groups.end[h], sum);
                    if (reached < groups.end[h]) break;
                    if (reached > groups.end[h]) entry |= kAcceptedIndex;
                }
                if (h < last && lane == 0) atomicAdd(&count[h], 1);
            }
            emit(h > last && lane == 0, entry, sum);
        }
        __syncthreads();
    }
};

template <class Source>
__global__ void __launch_bounds__(Source::kSharedThreads, Source::kSharedMinBlocks)
    shared_lists_kernel(Source src, LevelsRef lv, GroupEnds groups, int warp_tail, std::uint8_t* stage0_rejected,
                        Survivor* accepted, int* counts) {
    __shared__ int count[kMaxGroups];
    __shared__ unsigned class_count[32];
    __shared__ unsigned rank_classes[32];
    __shared__ int rank_first[32];
    const typename Source::View view = src.view();
    const int li = find_level(lv.levels, lv.count, blockIdx.x, &GpuLevel::first_shared_tile);
    const GpuLevel l = lv.levels[li];
    const int t = blockIdx.x - l.first_shared_tile;
    SharedLists<Source> b{reinterpret_cast<std::uint16_t*>(dynamic_smem),
                          reinterpret_cast<double*>(dynamic_smem + 2 * kSharedList * sizeof(std::uint16_t)),
                          count, class_count, rank_classes, rank_first, accepted, counts, l, li,
                          (t % l.tiles_x) * kTileWidth, (t / l.tiles_x) * kSharedTileRows, groups.count - 1,
                          static_cast<int>(threadIdx.x % 32), src.tile_pitch, view.policy == SumPolicy::running};
    if (threadIdx.x < kMaxGroups) count[threadIdx.x] = 0;
    if (threadIdx.x < 32) class_count[threadIdx.x] = 0;
    auto* tile = reinterpret_cast<std::uint32_t*>(dynamic_smem + shared_list_bytes(view.policy));
    const auto sampler = src.block(l, b.gx0, b.gy0, kSharedTileRows, tile);
    __syncthreads();

    unsigned kept = b.first_group(src, view, sampler, groups.end[0], stage0_rejected);
    if (b.last > 0) b.order(0, kept);
    int g = 1;
    for (; g <= b.last && g < Source::kFirstWarpGroup && count[g - 1] > warp_tail; ++g) {
        kept = b.thread_group(src, view, sampler, groups, g);
        if (g < b.last) b.order(g, kept);
    }
    if (g <= b.last) b.finish_by_warps(src, view, sampler, groups, g);
    if (threadIdx.x < b.last && count[threadIdx.x] > 0) atomicAdd(&counts[threadIdx.x], count[threadIdx.x]);
}

}  // namespace cascade::gpu
