#include "bench/eval/model_scan.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <mutex>
#include <type_traits>

#include "common/cascade_eval.hpp"
#include "common/hog_cpu_detector.hpp"
#include "common/hog_eval.hpp"
#include "common/hog_features.hpp"
#include "common/integral.hpp"
#include "common/parallel.hpp"
#include "common/pyramid.hpp"
#include "common/resize_exact.hpp"

namespace cascade::eval {

namespace {

// The window evaluation of each kind over the features of one image (or pyramid level).
struct LbpFeatures {
    IntegralImage integral;
    LbpFeatures(const LbpCascade&, const GrayView& image) { compute_integral(image, integral); }
    LbpFeatures(const LbpCascade&, const GrayView& image, const PyramidLevel& level) {
        GrayImage scaled(level.size.width, level.size.height);
        resize_linear_exact(image, scaled);
        compute_integral(scaled.view(), integral);
    }
    template <class F>
    void with_window(const LbpCascadeView& view, int x, int y, F&& f) const {
        const IntegralView sums = integral.view();
        f(LbpWindow<IntegralView>{view, sums, x, y});
    }
};

struct HogFeatures {
    HogIntegral integral;
    HogFeatures(const HogCascade&, const GrayView& image) { compute_hog_integral(image, integral); }
    HogFeatures(const HogCascade&, const GrayView& image, const PyramidLevel& level) {
        compute_hog_level(image, level, integral);
    }
    template <class F>
    void with_window(const HogCascadeView& view, int x, int y, F&& f) const {
        const HogIntegralView sampler = integral.view();
        f(HogWindow<HogIntegralView>{view, sampler, x, y});
    }
};

LbpFeatures features_of(const LbpCascade& c, const GrayView& image) { return {c, image}; }
HogFeatures features_of(const HogCascade& c, const GrayView& image) { return {c, image}; }
LbpFeatures features_of(const LbpCascade& c, const GrayView& image, const PyramidLevel& l) { return {c, image, l}; }
HogFeatures features_of(const HogCascade& c, const GrayView& image, const PyramidLevel& l) { return {c, image, l}; }

double largest_response(const LbpCascade& c, int weak) {
    const float* table =
        &c.responses[static_cast<std::size_t>(c.weaks[static_cast<std::size_t>(weak)].table) * kLbpCodes];
    double m = 0.0;
    for (int i = 0; i < kLbpCodes; ++i) m = std::max(m, std::fabs(static_cast<double>(table[i])));
    return m;
}

double largest_response(const HogCascade& c, int weak) {
    return std::fabs(static_cast<double>(c.weaks[static_cast<std::size_t>(weak)].vote));
}

template <class Cascade>
double span_of(const Cascade& c) {
    double bound = 0.0, running = 0.0;
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

// The depth score of the window at (x, y); `work` gets the weak learners evaluated.
template <class Cascade, class Features>
double depth_score_at(const Cascade& c, const Features& features, int x, int y, double span, int& work) {
    const auto view = view_of(c);
    double score = 0.0;
    work = 0;
    features.with_window(view, x, y, [&](const auto& window) {
        double sum = 0.0;
        const CountingWindow<std::decay_t<decltype(window)>> counted{window, &work};
        const int depth = run_stages(view, counted, 0, view.num_stages, sum);
        score = depth * span + sum;
    });
    return score;
}

template <class Cascade>
std::vector<ScoredWindow> scan_scores(const Cascade& c, const GrayView& image, const ScanParams& scan, double span,
                                      int min_depth) {
    const std::vector<PyramidLevel> levels = pyramid_levels(image.size(), c.window, scan.pyramid);
    const double min_score = (min_depth - 0.5) * span;  // sums lie within +-span / 2
    std::vector<ScoredWindow> all;
    std::mutex all_mutex;
    parallel_for(
        static_cast<int>(levels.size()),
        [&](int i) {
            const PyramidLevel& level = levels[static_cast<std::size_t>(i)];
            const auto features = features_of(c, image, level);
            std::vector<ScoredWindow> local;
            const int rows = scan_extent(level.size.height, c.window.height);
            for (int y = 0; y < rows; y += scan.rule.stride)
                scan_row(scan.rule, level, c.window, y, [&](int x, int wy) {
                    int work = 0;
                    const double score = depth_score_at(c, features, x, wy, span, work);
                    if (score >= min_score) local.push_back({to_image(level, x, wy), score, work});
                    return 1;  // fixed stride: the skip rule does not apply
                });
            std::lock_guard<std::mutex> lock(all_mutex);
            all.insert(all.end(), local.begin(), local.end());
        },
        scan.threads);
    return all;
}

}  // namespace

Size window_of(const Model& model) {
    return std::visit([](const auto& c) { return c.window; }, model.cascade);
}

double depth_span(const Model& model) {
    return std::visit([](const auto& c) { return span_of(c); }, model.cascade);
}

double window_depth_score(const Model& model, const GrayView& image, int x, int y, double span) {
    int work = 0;
    return std::visit([&](const auto& c) { return depth_score_at(c, features_of(c, image), x, y, span, work); },
                      model.cascade);
}

std::vector<ScoredWindow> scan_depth_scores(const Model& model, const GrayView& image, const ScanParams& scan,
                                            double span, int min_depth) {
    return std::visit([&](const auto& c) { return scan_scores(c, image, scan, span, min_depth); }, model.cascade);
}

int stage_count(const Model& model) {
    return std::visit([](const auto& c) { return static_cast<int>(c.stages.size()); }, model.cascade);
}

const char* work_unit(const Model& model) {
    return std::holds_alternative<HogCascade>(model.cascade) ? "blocks" : "weak learners";
}

}  // namespace cascade::eval
