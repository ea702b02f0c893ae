// Weak-learner responses of one window computed by a team, the lanes of a warp (all 32, or an aligned part) or
// the threads of a block, side by side: a window functor for common/cascade_eval.hpp's run_stages, which every lane calls with the same
// arguments.
//
// run_stages asks for responses in increasing order. The first request outside those the lanes hold makes
// every lane compute from there (lane k: weak learner i + k), up to one per lane: past the stage too when
// `stages` is null (they are needed if the window survives the stage, and the lanes would idle otherwise; an
// LBP weak learner is cheap), only to the end of i's stage otherwise (a HoG weak learner reads 144 histogram
// words, too many to spend on a window the stage may reject). Each request is answered by a shuffle (a block:
// shared memory) from the lane that holds it. So every lane adds the same responses in the same order as one
// thread would, and gets the same sums and decisions, bit for bit. Where the team's cascade adds a stage to the
// same double in any order (exact_sums: Haar), run_stages takes the stage's sum from stage_sum instead: every
// lane adds the responses it computes, then the team adds the lanes' parts (a butterfly of shuffles; a block
// then adds its warps' parts), some 10 dependent additions where one by one took as many as the stage has weak
// learners.
//
// Why: the few windows that survive the first stages would otherwise take their tens of weak learners one
// after another in one thread while the rest of the warp and block wait; a warp takes the latency of one
// weak learner per 32, a block (Haar's deep stages, up to 211 trees) of one a stage.
#pragma once

#include "common/model.hpp"

namespace cascade::gpu {

// The threads that compute one window's responses together: kWidth lanes of a warp (a whole warp, or an aligned
// part of one: the warp's other windows may have stopped at other stages, so a part shuffles among its own lanes
// only), which exchange them by shuffles, or a whole block of kThreads, through shared memory (every thread of
// the block calls every member).
// exact_sums: the cascade adds a stage's responses to the same double in any order (common/haar_eval.hpp
// exact_stage_sums), so the team adds them side by side (sum) instead of one by one.
template <int kWidth>
struct LaneTeam {
    static_assert(kWidth >= 2 && kWidth <= 32 && 32 % kWidth == 0, "an aligned part of a warp");
    static constexpr int kLanes = kWidth;
    bool exact_sums = false;
    __device__ __forceinline__ static int lanes() { return kWidth; }
    __device__ __forceinline__ static int lane() { return static_cast<int>(threadIdx.x % kWidth); }
    __device__ __forceinline__ static unsigned mask() {
        return kWidth == 32 ? 0xffffffffu : ((1u << kWidth) - 1u) << (threadIdx.x % 32 / kWidth * kWidth);
    }
    __device__ __forceinline__ void publish(double) const {}
    __device__ __forceinline__ double read(double mine, int lane) const {
        return __shfl_sync(mask(), mine, lane, kWidth);
    }
    // Every lane gets the sum of the lanes' parts (exact sums: the same whatever the butterfly's order).
    __device__ __forceinline__ double sum(double part) const {
        for (int offset = kWidth / 2; offset > 0; offset /= 2) part += __shfl_xor_sync(mask(), part, offset, kWidth);
        return part;
    }
};
using WarpTeam = LaneTeam<32>;

// LaneTeam of a width chosen at run time (1, 2, 4, ... 32: gpu/cascade_kernels.cuh lanes_for), so that one kernel
// serves every width instead of one instantiation of the window evaluation per width.
struct RuntimeLaneTeam {
    int width;
    bool exact_sums = false;
    __device__ __forceinline__ int lanes() const { return width; }
    __device__ __forceinline__ int lane() const { return static_cast<int>(threadIdx.x) & (width - 1); }
    __device__ __forceinline__ unsigned mask() const {
        return width == 32 ? 0xffffffffu : ((1u << width) - 1u) << (static_cast<int>(threadIdx.x) % 32 & ~(width - 1));
    }
    __device__ __forceinline__ void publish(double) const {}
    __device__ __forceinline__ double read(double mine, int lane) const { return __shfl_sync(mask(), mine, lane, width); }
    __device__ __forceinline__ double sum(double part) const {
        for (int offset = width / 2; offset > 0; offset /= 2) part += __shfl_xor_sync(mask(), part, offset, width);
        return part;
    }
};

template <int kThreads>
struct BlockTeam {
    static constexpr int kLanes = kThreads;
    double* responses;  // shared memory, kThreads
    bool exact_sums = false;
    __device__ __forceinline__ static int lanes() { return kThreads; }
    __device__ __forceinline__ static int lane() { return static_cast<int>(threadIdx.x); }
    __device__ __forceinline__ void publish(double mine) const {
        __syncthreads();  // every thread has read the previous responses
        responses[threadIdx.x] = mine;
        __syncthreads();
    }
    __device__ __forceinline__ double read(double, int lane) const { return responses[lane]; }
    __device__ __forceinline__ double sum(double part) const {
        part = WarpTeam{}.sum(part);
        __syncthreads();
        if (threadIdx.x % 32 == 0) responses[threadIdx.x / 32] = part;
        __syncthreads();
        double total = 0.0;
        for (int w = 0; w < kThreads / 32; ++w) total += responses[w];
        return total;
    }
};

template <class Window, class Team = WarpTeam>
struct WarpResponses {
    Window window;        // response of weak learner i: window(i)
    int num_weaks;        // the cascade's; lanes past the last compute nothing
    const Stage* stages;  // non-null: compute no further than the end of the requested weak learner's stage
    Team team;
    // run_stages takes the functor by const reference: the lanes' current responses are cached state. Held
    // as a double: run_stages adds them to a double sum, and converting once per lane is cheaper than once
    // per weak learner in every lane.
    mutable int first = 0, limit = 0;  // the lanes hold weak learners [first, limit)
    mutable int stage = 0;             // with `stages`: the stage of the last request
    mutable double mine = 0.0;

    __device__ __forceinline__ double operator()(int i) const {
        if (i < first || i >= limit) {  // the same in every lane
            first = i;
            limit = min(i + team.lanes(), num_weaks);
            if (stages) {
                while (stages[stage].first + stages[stage].count <= i) ++stage;
                limit = min(limit, stages[stage].first + stages[stage].count);
            }
            const int j = i + team.lane();
            mine = j < limit ? window(j) : 0.f;
            team.publish(mine);
        }
        return team.read(mine, i - first);
    }

    // run_stages' hook (common/cascade_eval.hpp add_stage): with exact sums, each lane adds the responses it
    // computes, then the team adds the lanes' parts.
    __device__ __forceinline__ bool exact_sums() const { return team.exact_sums; }
    __device__ __forceinline__ double stage_sum(const Stage& st) const {
        double part = 0.0;
        for (int j = st.first + team.lane(); j < st.first + st.count; j += team.lanes()) part += window(j);
        return team.sum(part);
    }
};

}  // namespace cascade::gpu
