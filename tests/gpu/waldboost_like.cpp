#include "tests/gpu/waldboost_like.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "common/cascade_eval.hpp"
#include "common/integral.hpp"

namespace cascade::test {

namespace {

struct Sample {
    IntegralView sums;
    int x, y;
    double sum;
};

// A threshold that keeps about `keep` of the sums (reject: sum < threshold). Sums of the first weak learners
// take few distinct values (OpenCV's stumps have two leaves), so a tie can straddle the quantile: then of the
// tied value (keeping more) and the next value above (keeping less), the one whose kept share is nearer wins.
float quantile_threshold(std::vector<double>& sums, double keep) {
    std::sort(sums.begin(), sums.end());
    const double n = static_cast<double>(sums.size());
    const auto first = std::min(sums.size() - 1, static_cast<std::size_t>(std::ceil((1.0 - keep) * n)));
    double threshold = sums[first];
    if (first > 0 && sums[first - 1] == threshold) {
        const auto tie = std::lower_bound(sums.begin(), sums.end(), threshold);
        const auto above = std::upper_bound(sums.begin(), sums.end(), threshold);
        const double keep_above = static_cast<double>(sums.end() - above) / n;
        const double keep_tie = static_cast<double>(sums.end() - tie) / n;
        if (above != sums.end() && keep - keep_above < keep_tie - keep)
            threshold = *above;
        else
            threshold = *tie;
    }
    // As a float (the model's type), rounded down if needed so that every sum >= threshold passes.
    float t = static_cast<float>(threshold);
    if (static_cast<double>(t) > threshold) t = std::nextafter(t, -std::numeric_limits<float>::infinity());
    return t;
}

}  // namespace

WaldboostLike make_waldboost_like(const LbpCascade& source, const std::vector<GrayView>& frames,
                                  const WaldboostLikeParams& params) {
    WaldboostLike out;
    LbpCascade& c = out.cascade;
    c.window = source.window;
    c.policy = SumPolicy::running;
    c.weaks = source.weaks;
    c.responses = source.responses;

    std::vector<IntegralImage> integrals(frames.size());
    std::vector<Sample> alive;
    for (std::size_t f = 0; f < frames.size(); ++f) {
        compute_integral(frames[f], integrals[f]);
        for (int y = 0; y + c.window.height <= frames[f].height; y += params.sample_step)
            for (int x = 0; x + c.window.width <= frames[f].width; x += params.sample_step)
                alive.push_back({integrals[f].view(), x, y, 0.0});
    }
    const double total = static_cast<double>(alive.size());

    const LbpCascadeView view = view_of(c);  // LbpWindow reads only the weak learners and tables
    std::vector<double> sums;
    for (int k = 0; k < static_cast<int>(c.weaks.size()); ++k) {
        if (alive.empty()) {  // nothing left to measure: keep the last threshold
            c.stages.push_back({k, 1, c.stages.empty() ? 0.f : c.stages.back().threshold});
            out.sample_survival.push_back(0.0);
            continue;
        }
        sums.clear();
        for (Sample& s : alive) {
            s.sum += LbpWindow<IntegralView>{view, s.sums, s.x, s.y}(k);
            sums.push_back(s.sum);
        }
        const double keep = k == 0 ? params.first_keep : k < 8 ? params.early_keep : params.late_keep;
        const float threshold = quantile_threshold(sums, keep);
        c.stages.push_back({k, 1, threshold});
        float accept = std::numeric_limits<float>::infinity();
        if (params.accept_share > 0.0 && k >= 8 && k + 1 < static_cast<int>(c.weaks.size())) {
            const double n = static_cast<double>(sums.size());  // sorted by quantile_threshold
            const auto top = std::min(sums.size() - 1, static_cast<std::size_t>((1.0 - params.accept_share) * n));
            if (static_cast<float>(sums[top]) > threshold) accept = c.stages.back().accept = static_cast<float>(sums[top]);
        }
        alive.erase(std::remove_if(alive.begin(), alive.end(),
                                   [&](const Sample& s) { return s.sum < threshold || s.sum >= accept; }),
                    alive.end());
        out.sample_survival.push_back(static_cast<double>(alive.size()) / total);
    }
    return out;
}

}  // namespace cascade::test
