#include "train/hog/evaluation.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "common/cascade_eval.hpp"
#include "common/hog_cpu_detector.hpp"
#include "common/hog_eval.hpp"
#include "common/parallel.hpp"
#include "data/image_files.hpp"

namespace cascade::train::hog {

double Evaluation::miss_rate_at(double fppw) const {
    for (std::size_t k = 0; k < depths.size(); ++k) {
        if (depths[k].fppw > fppw) continue;
        if (k == 0) return 1.0 - depths[0].hit_rate;  // one stage is already below: its miss rate (conservative)
        const DepthPoint& a = depths[k - 1];
        const DepthPoint& b = depths[k];
        if (b.fppw <= 0.0) return 1.0 - b.hit_rate;
        const double t = (std::log(fppw) - std::log(a.fppw)) / (std::log(b.fppw) - std::log(a.fppw));
        return 1.0 - (a.hit_rate + t * (b.hit_rate - a.hit_rate));
    }
    return std::numeric_limits<double>::quiet_NaN();
}

double Evaluation::rejected_within(int stages) const {
    if (stages <= 0 || depths.empty()) return 0.0;
    const std::size_t k = static_cast<std::size_t>(std::min<int>(stages, static_cast<int>(depths.size()))) - 1;
    return 1.0 - depths[k].fppw;
}

Evaluation evaluate(const HogCascade& cascade, const WindowSet& positives,
                    const std::vector<data::NegativeImage>& negatives, const ScanParams& scan) {
    const int num_stages = static_cast<int>(cascade.stages.size());
    const HogCascadeView view = view_of(cascade);
    std::vector<int> positive_depth(static_cast<std::size_t>(positives.size()));
    parallel_for(
        positives.size(),
        [&](int i) {
            const HogSampler sampler = positives.view(i);
            int rejected_at = 0;
            double score = 0.0;
            accept_window(view, HogWindow<HogSampler>{view, sampler, 0, 0}, rejected_at, score);
            positive_depth[static_cast<std::size_t>(i)] = rejected_at;
        },
        scan.threads);

    ScanStats stats;
    stats.rejected_at.assign(static_cast<std::size_t>(num_stages) + 1, 0);
    for (const data::NegativeImage& image : negatives) {
        ScanStats one;
        detect_windows(cascade, data::read_gray(image.path).view(), scan, &one);
        stats.add(one);
    }

    Evaluation e;
    e.positives = positives.size();
    e.images = static_cast<int>(negatives.size());
    e.windows = stats.windows;
    e.blocks_per_window = stats.weaks_per_window();
    for (int k = 1; k <= num_stages; ++k) {
        std::int64_t negatives_through = 0;
        for (int s = k; s <= num_stages; ++s) negatives_through += stats.rejected_at[static_cast<std::size_t>(s)];
        int positives_through = 0;
        for (int d : positive_depth) positives_through += d >= k ? 1 : 0;
        e.depths.push_back({k, e.positives > 0 ? static_cast<double>(positives_through) / e.positives : 0.0,
                            e.windows > 0 ? static_cast<double>(negatives_through) / static_cast<double>(e.windows) : 0.0});
    }
    return e;
}

}  // namespace cascade::train::hog
