// Weak-learner responses of one window computed by the 32 lanes of a warp side by side: a window functor for
// common/cascade_eval.hpp's run_stages, which every lane of the warp calls with the same arguments.
//
// run_stages asks for responses in increasing order. The first request outside those the lanes hold makes
// every lane compute from there (lane k: weak learner i + k), up to 32 weak learners: past the stage too when
// `stages` is null (they are needed if the window survives the stage, and the lanes would idle otherwise; an
// LBP weak learner is cheap), only to the end of i's stage otherwise (a HoG weak learner reads 144 histogram
// words, too many to spend on a window the stage may reject). Each request is answered by a shuffle from the
// lane that holds it. So every lane adds the same responses in the same order as one thread would, and gets
// the same sums and decisions, bit for bit.
//
// Why: the few windows that survive the first stages would otherwise take their tens of weak learners one
// after another in one thread while the rest of the warp and block wait; a warp takes the latency of one
// weak learner per 32.
#pragma once

#include "common/model.hpp"

namespace cascade::gpu {

template <class Window>
struct WarpResponses {
    Window window;        // response of weak learner i: window(i)
    int num_weaks;        // the cascade's; lanes past the last compute nothing
    const Stage* stages;  // non-null: compute no further than the end of the requested weak learner's stage
    // run_stages takes the functor by const reference: the lanes' current responses are cached state. Held
    // as a double: run_stages adds them to a double sum, and converting once per lane is cheaper than once
    // per weak learner in every lane.
    mutable int first = 0, limit = 0;  // the lanes hold weak learners [first, limit)
    mutable int stage = 0;             // with `stages`: the stage of the last request
    mutable double mine = 0.0;

    __device__ __forceinline__ double operator()(int i) const {
        if (i < first || i >= limit) {  // the same in every lane
            first = i;
            limit = min(i + 32, num_weaks);
            if (stages) {
                while (stages[stage].first + stages[stage].count <= i) ++stage;
                limit = min(limit, stages[stage].first + stages[stage].count);
            }
            const int j = i + static_cast<int>(threadIdx.x % 32);
            mine = j < limit ? window(j) : 0.f;
        }
        return __shfl_sync(0xffffffffu, mine, i - first);
    }
};

}  // namespace cascade::gpu
