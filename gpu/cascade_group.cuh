// What every cascade kernel does with one window or one survivor list, whatever the feature family
// (gpu/cascade_kernels.cuh says what a window source is): run a group of stages on a window by one thread or
// by a whole warp, and decide whether it goes on.
#pragma once

#include <cstdint>
#include <type_traits>

#include "common/cascade_eval.hpp"
#include "common/feature_family.hpp"
#include "gpu/cascade_target.hpp"
#include "gpu/warp_responses.cuh"

namespace cascade::gpu {

// Dynamic shared memory of every cascade kernel: the window source's tiles, and the shared-memory strategy's
// lists.
extern __shared__ __align__(16) unsigned char dynamic_smem[];

constexpr int kFirstGroupThreads = kTileWidth * kTileRows;  // 256: one window position per thread

struct LevelsRef {
    const GpuLevel* levels;
    int count;
};

struct ListRef {
    Survivor* list;
    int* count;
};

// Whether a window that stopped at `reached` goes on after group [.., end): passed or accepted. A window
// accepted before the last stage is marked so that later groups only pass it on (gpu/survivor.hpp).
__device__ __forceinline__ bool goes_on(int reached, int end, Survivor& s) {
    if (reached > end) s.level |= kAcceptedEarly;
    return reached >= end;
}

// Stages [begin, end) on the window at (x, y) of `sampler`: one thread, or a whole team (every lane passes the
// same arguments): a warp in a group from the source's kFirstWarpGroup on, a block from its kFirstBlockGroup
// on. Returns run_stages' answer, or kWindowRefused for a window its family refuses (common/cascade_eval.hpp:
// neither goes on nor counts as a first-stage rejection).
template <class Source, class Sampler>
__device__ __forceinline__ int run_group(const Source& src, const typename Source::View& view, const Sampler& sampler,
                                         int x, int y, int begin, int end, double& sum) {
    const auto window = src.window_at(view, sampler, x, y);
    if (refused(window)) return kWindowRefused;
    return run_stages(view, window, begin, end, sum);
}

// Whether a source's cascade adds each stage to the same double in any order (its `exact_sums` member; a source
// without one: no).
template <class Source, class = void>
struct HasExactSums : std::false_type {};
template <class Source>
struct HasExactSums<Source, std::void_t<decltype(std::declval<const Source&>().exact_sums)>> : std::true_type {};
template <class Source>
__device__ __forceinline__ bool exact_sums(const Source& src) {
    if constexpr (HasExactSums<Source>::value)
        return src.exact_sums;
    else
        return false;
}

// The view that one thread per window reads in a group of stages ending at `end`: a source with a
// constant_view() (Haar: its model's first stages copied to constant memory, up to stage constant_stages) gives
// that one where the group lies within it, so that the threads' uniform loads of trees and nodes go through
// the constant cache rather than L1, where each window's corners are read; otherwise view(). Calls f(view).
template <class Source, class = void>
struct HasConstantView : std::false_type {};
template <class Source>
struct HasConstantView<Source, std::void_t<decltype(std::declval<const Source&>().constant_view())>>
    : std::true_type {};
template <class Source, class F>
__device__ __forceinline__ void with_thread_view(const Source& src, int end, F&& f) {
    if constexpr (HasConstantView<Source>::value)
        if (end <= src.constant_stages) return f(src.constant_view());
    f(src.view());
}

template <class Source, class Sampler, class Team>
__device__ int run_group_team(const Source& src, const typename Source::View& view, const Sampler& sampler, int x,
                              int y, int begin, int end, double& sum, const Team& team) {
    using Window = decltype(src.window_at(view, sampler, x, y));
    const Window window = src.window_at(view, sampler, x, y);
    if (refused(window)) return kWindowRefused;
    const WarpResponses<Window, Team> responses{window, weak_count(view), view.stages, team};
    return run_stages(view, responses, begin, end, sum);
}

// What every window source holds of its cascade, and the view run_stages reads, over the family's __constant__
// arrays (built in the kernel, so that the compiler emits constant-cache loads).
struct CascadeShape {
    Size window;
    SumPolicy policy;
    int num_stages;

    template <class View, class Weak>
    __device__ __forceinline__ View view_over(const Stage* stages, const Weak* weaks) const {
        View v;
        v.window = window;
        v.policy = policy;
        v.num_stages = num_stages;
        v.stages = stages;
        v.weaks = weaks;
        return v;
    }
};

// The part of a window source that its feature family (common/feature_family.hpp, the CPU scan's concept) gives:
// the cascade view and the window functor, F::Window<S>{view, sampler, x, y}, over whatever sampler the kernels
// hand it (a tile in shared memory, a level in global memory or behind a texture).
template <class Family>
struct FamilyWindows : CascadeShape {
    using View = typename Family::View;

    template <class Sampler>
    __device__ __forceinline__ auto window_at(const View& view, const Sampler& sampler, int x, int y) const {
        return typename Family::template Window<Sampler>{view, sampler, x, y};
    }
};

struct GroupEnds {
    int count;
    int end[kMaxGroups];
};

}  // namespace cascade::gpu
