// Evaluation of one window by a boosted cascade, written once for host and device.
//
// A *view* is the POD form of a cascade (pointers + counts) that both the CPU detector (over std::vector
// storage) and the GPU kernels (over device memory) read. A *window* functor returns the response of weak
// learner i for one window position; run_stages drives the stages over it.
#pragma once

#include <type_traits>
#include <utility>

#include "common/hd.hpp"
#include "common/lbp_eval.hpp"
#include "common/lbp_histogram_eval.hpp"
#include "common/model.hpp"

namespace cascade {

struct LbpCascadeView {
    Size window;
    SumPolicy policy = SumPolicy::per_stage;
    int num_stages = 0;
    const Stage* stages = nullptr;
    const LbpWeak* weaks = nullptr;
    const float* responses = nullptr;
    LbpHistogramSvmView final_svm;  // weights == nullptr: none
};

inline LbpCascadeView view_of(const LbpCascade& c) {
    return {c.window, c.policy, static_cast<int>(c.stages.size()), c.stages.data(), c.weaks.data(),
            c.responses.data(), view_of(c.final_svm)};
}

// Response of weak learner i of an LBP cascade for the window at (x, y) of an integral image.
template <class Sampler>
struct LbpWindow {
    const LbpCascadeView& cascade;
    const Sampler& sampler;
    int x, y;

    CASCADE_HD float operator()(int i) const {
        const LbpWeak w = cascade.weaks[i];
        return cascade.responses[w.table * kLbpCodes + lbp_code(sampler, x, y, w.feature)];
    }

    // The final histogram SVM (where the cascade has one) of a window that the stages accepted: true when it
    // accepts, `score` its score. Only for samplers that also read the level's LBP bins (lbp_bin).
    template <class S = Sampler>
    CASCADE_HD auto final_stage(double& score) const -> decltype(std::declval<const S&>().lbp_bin(0, 0), bool()) {
        const LbpHistogramSvmView& svm = cascade.final_svm;
        if (svm.weights == nullptr) return true;
        const float s = lbp_histogram_svm_score(svm, sampler, x, y);
        score = s;
        return s >= svm.threshold;
    }
};

// The number of weak learners of a view: its stages cover them in order, without gaps (model.hpp validate).
template <class View>
CASCADE_HD int weak_count(const View& cascade) {
    const Stage last = cascade.stages[cascade.num_stages - 1];
    return last.first + last.count;
}

// A window functor may add a stage's responses itself (stage_sum), where its exact_sums() says that every order
// of addition gives the same double: the GPU's teams of threads then add them side by side
// (gpu/warp_responses.cuh). Otherwise they are added one after another, in order.
template <class Window, class = void>
struct SumsStages : std::false_type {};
template <class Window>
struct SumsStages<Window, std::void_t<decltype(std::declval<const Window&>().stage_sum(std::declval<const Stage&>()))>>
    : std::true_type {};

template <class Window>
CASCADE_HD double add_stage(const Window& window, const Stage& stage, double sum) {
    if constexpr (SumsStages<Window>::value)
        if (window.exact_sums()) return sum + window.stage_sum(stage);
    for (int i = stage.first; i < stage.first + stage.count; ++i) sum += window(i);
    return sum;
}

// Runs stages [begin, end) of `cascade` on one window. `sum` carries the running sum between calls, so the
// GPU can split a cascade into groups of stages and compact survivors in between. The sum is a double
// because OpenCV accumulates its float leaves in double; the comparison then matches OpenCV exactly.
// Returns the first stage that rejects the window; cascade.num_stages when a stage's acceptance threshold
// accepts it (a decision like the last stage's, so `sum` is its score; only models with acceptance thresholds
// return it before `end` == num_stages); `end` when it passes them all.
// Whether a window whose sum after stage s is `sum` stops there, and where (`reached`: s when the stage rejects
// it, num_stages when its acceptance threshold accepts it).
CASCADE_HD bool stops_at(const Stage& stage, int s, int num_stages, double sum, int& reached) {
    if (sum < stage.threshold) {
        reached = s;
        return true;
    }
    if (sum >= stage.accept) {
        reached = num_stages;
        return true;
    }
    return false;
}

template <class View, class Window>
CASCADE_HD int run_stages(const View& cascade, const Window& window, int begin, int end, double& sum) {
    for (int s = begin; s < end; ++s) {
        const Stage stage = cascade.stages[s];
        if (cascade.policy == SumPolicy::per_stage) sum = 0.0;
        sum = add_stage(window, stage, sum);
        int reached;
        if (stops_at(stage, s, cascade.num_stages, sum, reached)) return reached;
    }
    return end;
}

// run_stages on two windows at once, over a functor whose operator()(i) gives weak learner i's responses for both
// (.left, .right: common/lbp_tables.hpp TileWindowPair): each window's sum is added in run_stages' order and
// each stops where run_stages would (reached[k], sum[k] as run_stages' return value and sum). Both are computed
// until both have stopped; a stopped window's responses are dropped. For cascades without stage_sum.
template <class View, class Pair>
CASCADE_HD void run_stages_pair(const View& cascade, const Pair& pair, int begin, int end, double (&sum)[2],
                                int (&reached)[2]) {
    reached[0] = reached[1] = end;
    bool left_on = true, right_on = true;
    for (int s = begin; s < end && (left_on || right_on); ++s) {
        const Stage stage = cascade.stages[s];
        double left = cascade.policy == SumPolicy::per_stage ? 0.0 : sum[0];
        double right = cascade.policy == SumPolicy::per_stage ? 0.0 : sum[1];
        for (int i = stage.first; i < stage.first + stage.count; ++i) {
            const auto r = pair(i);
            left += r.left;
            right += r.right;
        }
        if (left_on) {
            sum[0] = left;
            left_on = !stops_at(stage, s, cascade.num_stages, left, reached[0]);
        }
        if (right_on) {
            sum[1] = right;
            right_on = !stops_at(stage, s, cascade.num_stages, right, reached[1]);
        }
    }
}

// A window its family refuses before any stage (OpenCV's Haar test of a flat window, haar_eval.hpp): rejected,
// but not by the first stage, so OpenCV's scan rule does not skip the position after it.
constexpr int kWindowRefused = -1;

template <class Window, class = void>
struct CanRefuse : std::false_type {};
template <class Window>
struct CanRefuse<Window, std::void_t<decltype(std::declval<const Window&>().refused)>> : std::true_type {};

// True when `window` has a `refused` member that is set (families without one never refuse).
template <class Window>
CASCADE_HD bool refused(const Window& window) {
    if constexpr (CanRefuse<Window>::value)
        return window.refused;
    else
        return false;
}

// Whether a cascade has a stage after its boosted stages: LbpCascade's histogram SVM (accept_window's final_stage).
CASCADE_HD bool has_final_stage(const LbpCascadeView& view) { return view.final_svm.weights != nullptr; }
template <class View>
CASCADE_HD bool has_final_stage(const View&) {
    return false;
}

template <class Window, class = void>
struct HasFinalStage : std::false_type {};
template <class Window>
struct HasFinalStage<Window, std::void_t<decltype(std::declval<const Window&>().final_stage(std::declval<double&>()))>>
    : std::true_type {};

// The whole cascade: true when the window passes every stage or one accepts it; `score` gets the last sum.
// `rejected_at` is the rejecting stage, num_stages when accepted, kWindowRefused when the family refused it.
// A window functor with a final_stage (LbpWindow over a sampler of LBP bins: the histogram SVM) decides the
// windows that the stages accept: a window it rejects also reports num_stages (the return value tells), an
// accepted one gets its score.
template <class View, class Window>
CASCADE_HD bool accept_window(const View& cascade, const Window& window, int& rejected_at, double& score) {
    score = 0.0;
    if (refused(window)) {
        rejected_at = kWindowRefused;
        return false;
    }
    rejected_at = run_stages(cascade, window, 0, cascade.num_stages, score);
    if constexpr (HasFinalStage<Window>::value)
        if (rejected_at == cascade.num_stages) return window.final_stage(score);
    return rejected_at == cascade.num_stages;
}

}  // namespace cascade
