#include "bench/eval/model_scan.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include "common/cascade_eval.hpp"
#include "common/feature_family.hpp"
#include "common/scan_pyramid.hpp"

namespace cascade::eval {

namespace {

double largest_response(const LbpCascade& c, int weak) {
    const float* table =
        &c.responses[static_cast<std::size_t>(c.weaks[static_cast<std::size_t>(weak)].table) * kLbpCodes];
    double m = 0.0;
    for (int i = 0; i < kLbpCodes; ++i) m = std::max(m, std::fabs(static_cast<double>(table[i])));
    return m;
}

// Without a linear term the largest |step|; with one, what its projection can reach: the descriptor's norm is
// below 1, so |p| <= |weights| + |bias|.
double largest_response(const HogCascade& c, int weak) {
    const HogWeak& w = c.weaks[static_cast<std::size_t>(weak)];
    double m = 0.0;
    for (int k = 0; k <= w.num_cuts; ++k) m = std::max(m, std::fabs(static_cast<double>(w.responses[k])));
    if (w.slope == 0.f) return m;
    double norm2 = 0.0;
    for (const float x : w.weights) norm2 += static_cast<double>(x) * x;
    return m + std::fabs(static_cast<double>(w.slope)) * (std::sqrt(norm2) + std::fabs(static_cast<double>(w.bias)));
}

// A covariance learner's limit, or HoG's bound with |v| <= 8 * 28: the logarithm's eigenvalues lie within
// ln(kCovMinEigenvalue) = -27.6 and the normalised covariances' (below e^28) for any practical mean.
double largest_response(const CovCascade& c, int weak) {
    const CovWeak& w = c.weaks[static_cast<std::size_t>(weak)];
    double m = 0.0;
    for (int k = 0; k <= w.num_cuts; ++k) m = std::max(m, std::fabs(static_cast<double>(w.responses[k])));
    double norm2 = 0.0;
    for (const float x : w.weights) norm2 += static_cast<double>(x) * x;
    const double bound = m + std::fabs(static_cast<double>(w.slope)) * (std::sqrt(norm2) * 8 * 28 + std::fabs(w.bias));
    return std::min(bound, static_cast<double>(w.limit));
}

// A tree's response is one of its leaves.
double largest_response(const HaarCascade& c, int weak) {
    const HaarTree& t = c.weaks[static_cast<std::size_t>(weak)];
    double m = 0.0;
    for (int l = 0; l <= t.node_count; ++l)
        m = std::max(m, std::fabs(static_cast<double>(c.leaves[static_cast<std::size_t>(t.first_leaf + l)])));
    return m;
}

// A final histogram SVM's score: each normalised count lies in [0, 1].
double final_stage_bound(const LbpCascade& c) {
    if (!c.final_svm) return 0.0;
    double m = std::fabs(static_cast<double>(c.final_svm->bias));
    for (const float w : c.final_svm->weights) m += std::fabs(static_cast<double>(w));
    return m;
}
template <class Cascade>
double final_stage_bound(const Cascade&) {
    return 0.0;
}

template <class Cascade>
double span_of(const Cascade& c) {
    double bound = final_stage_bound(c), running = 0.0;
    for (const Stage& stage : c.stages) {
        double stage_bound = 0.0;
        for (int i = stage.first; i < stage.first + stage.count; ++i) stage_bound += largest_response(c, i);
        running += stage_bound;
        bound = std::max(bound, c.policy == SumPolicy::running ? running : stage_bound);
    }
    return 2.0 * bound + 1.0;
}

// A window functor that counts the weak learners run_stages evaluates through it.
template <class Window>
struct CountingWindow {
    const Window& window;
    int* evaluated;

    float operator()(int i) const {
        ++*evaluated;
        return window(i);
    }
};

// The depth score of the window at (x, y) of a level's planes; `work` gets the weak learners evaluated and
// `depth` the stage where run_stages stopped (kWindowRefused, scored below every stage, for a window the family
// refuses). A final histogram SVM is one more stage (stage_count): a window that passes the others reaches it
// (depth num_stages), one it accepts gets past it (num_stages + 1), both with the SVM's score instead of the sum.
template <class Family>
double depth_score_at(const typename Family::View& view, const typename Family::Sampler& sampler, int x, int y,
                      double span, int& work, int& depth) {
    const typename Family::template Window<typename Family::Sampler> window{view, sampler, x, y};
    const CountingWindow<decltype(window)> counted{window, &work};
    double sum = 0.0;
    work = 0;
    if (refused(window)) {
        depth = kWindowRefused;
        return depth * span;
    }
    depth = run_stages(view, counted, 0, view.num_stages, sum);
    if constexpr (HasFinalStage<decltype(window)>::value)
        if (depth == view.num_stages && has_final_stage(view) && window.final_stage(sum)) ++depth;
    return depth * span + sum;
}

// scan_pyramid's visitor: the depth score of every window that gets at least to stage `min_depth`.
template <class Family>
class DepthScores {
public:
    struct Task {
        const DepthScores* owner;
        std::vector<ScoredWindow> local;

        int visit(const LevelPlanes<Family>& level, int x, int y) {
            int work = 0, depth = 0;
            const double score = depth_score_at<Family>(owner->view_, level.sampler, x, y, owner->span_, work, depth);
            if (score >= owner->min_score_) local.push_back({to_image(level.level, x, y), score, work});
            return depth;
        }
    };

    DepthScores(const typename Family::Cascade& c, double span, int min_depth)
        : view_(view_of(c)), span_(span), min_score_((min_depth - 0.5) * span) {}  // sums lie within +-span / 2
    Task task() const { return {this, {}}; }
    void merge(Task& t) { all_.insert(all_.end(), t.local.begin(), t.local.end()); }
    std::vector<ScoredWindow>& all() { return all_; }

private:
    typename Family::View view_;
    double span_;
    double min_score_;
    std::vector<ScoredWindow> all_;
};

}  // namespace

Size window_of(const Model& model) {
    return std::visit([](const auto& c) { return c.window; }, model.cascade);
}

double depth_span(const Model& model) {
    return std::visit([](const auto& c) { return span_of(c); }, model.cascade);
}

double window_depth_score(const Model& model, const GrayView& image, int x, int y, double span) {
    return std::visit(
        [&](const auto& c) {
            using Family = typename FamilyOf<std::decay_t<decltype(c)>>::type;
            typename Family::Planes planes;
            Family::build(c, image, planes);
            int work = 0, depth = 0;
            return depth_score_at<Family>(view_of(c), Family::sampler(planes), x, y, span, work, depth);
        },
        model.cascade);
}

std::vector<ScoredWindow> scan_depth_scores(const Model& model, const GrayView& image, const ScanParams& scan,
                                            double span, int min_depth) {
    return std::visit(
        [&](const auto& c) {
            DepthScores<typename FamilyOf<std::decay_t<decltype(c)>>::type> visitor(c, span, min_depth);
            scan_pyramid(c, image, scan, visitor);
            return std::move(visitor.all());
        },
        model.cascade);
}

int stage_count(const Model& model) {
    const auto* lbp = std::get_if<LbpCascade>(&model.cascade);
    const int final_stage = lbp && lbp->final_svm ? 1 : 0;  // the histogram SVM: one more stage of depth scores
    return final_stage + std::visit([](const auto& c) { return static_cast<int>(c.stages.size()); }, model.cascade);
}

const char* work_unit(const Model& model) {
    return std::holds_alternative<HogCascade>(model.cascade) ? "blocks" : "weak learners";
}

}  // namespace cascade::eval
