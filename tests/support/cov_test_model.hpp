// A covariance cascade of random weak learners for tests (CPU and GPU alike): rectangles on the grid, both
// mappings (a tangent learner's mean a random symmetric matrix near the identity), step responses, linear terms
// and clipping, and every fourth learner an LBP-histogram learner (a square cell of 8 to 20 pixels, bins from 0
// or 36). Each stage's threshold is put where `pass` of the windows (stride 8)
// of a calibration image that reach it pass it (0.7 by default, so that windows leave at every stage and many
// pass; a benchmark may ask for a trained cascade's profile instead, e.g. 0.35).
#pragma once

#include <algorithm>
#include <random>
#include <vector>

#include "common/cascade_eval.hpp"
#include "common/cov_eval.hpp"
#include "common/cov_features.hpp"
#include "common/model.hpp"

namespace cascade::test {

inline CovWeak random_cov_weak(std::mt19937& random, Size window, int k) {
    std::normal_distribution<float> normal(0.f, 1.f);
    const auto grid = [&](int cells) { return static_cast<int>(random() % static_cast<unsigned>(cells)); };
    CovWeak w;
    const int cols = window.width / kCovGrid, rows = window.height / kCovGrid;
    w.rect.width = kCovGrid * (2 + grid(cols / 2));
    w.rect.height = kCovGrid * (2 + grid(rows / 2));
    w.rect.x = kCovGrid * grid(cols - w.rect.width / kCovGrid + 1);
    w.rect.y = kCovGrid * grid(rows - w.rect.height / kCovGrid + 1);
    for (float& x : w.weights) x = 0.3f * normal(random);
    w.bias = 0.1f * normal(random);
    if (k % 3 == 1) {  // a real-AdaBoost bin table
        w.num_cuts = 2;
        w.cuts[0] = -0.5f;
        w.cuts[1] = 0.5f;
        w.responses[0] = -0.7f;
        w.responses[1] = 0.1f;
        w.responses[2] = 0.6f;
        w.slope = 0.f;
    } else if (k % 3 == 2) {
        w.limit = 1.5f;  // LogitBoost's regression, clipped
    }
    if (k % 4 == 3) {
        w.descriptor = kCovDescriptorLbpHistogram;
        w.rect.width = w.rect.height = kCovGrid * (2 + grid(4));
        w.rect.x = kCovGrid * grid(cols - w.rect.width / kCovGrid + 1);
        w.rect.y = kCovGrid * grid(rows - w.rect.height / kCovGrid + 1);
        w.first_bin = random() % 2 == 0 ? 0 : kCovDims;
        for (int b = lbp_learner_bins(w.first_bin); b < kCovDims; ++b) w.weights[b] = 0.f;
    } else if (k % 2 == 1) {
        w.mapping = kCovTangent;
        for (int i = 0; i < kCovFeatures; ++i)
            for (int j = i; j < kCovFeatures; ++j)
                w.mean_isqrt[i * kCovFeatures + j] = w.mean_isqrt[j * kCovFeatures + i] =
                    (i == j ? 1.f : 0.f) + 0.1f * normal(random);
    }
    return w;
}

// Stages of stage_sizes[s] learners over a `window` window, thresholds calibrated on `image`.
inline CovCascade random_cov_cascade(unsigned seed, const std::vector<int>& stage_sizes, const GrayView& image,
                                     Size window = {64, 128}, double pass = 0.7) {
    std::mt19937 random(seed);
    CovCascade c;
    c.window = window;
    const int stages = static_cast<int>(stage_sizes.size());
    for (int s = 0; s < stages; ++s) {
        const int size = stage_sizes[static_cast<std::size_t>(s)];
        c.stages.push_back({static_cast<int>(c.weaks.size()), size, 0.f});
        for (int k = 0; k < size; ++k) c.weaks.push_back(random_cov_weak(random, window, k));
    }
    CovPlanes planes;
    compute_cov_planes(image, planes, uses_lbp_bins(c));
    const CovLbpGridView sampler = planes.lbp_sampler();
    for (int s = 0; s < stages; ++s) {
        const CovCascadeView view = view_of(c);
        std::vector<double> sums;
        for (int y = 0; y + window.height <= image.height; y += 8)
            for (int x = 0; x + window.width <= image.width; x += 8) {
                const CovWindow<CovLbpGridView> w(view, sampler, x, y);
                double sum = 0;
                if (run_stages(view, w, 0, s, sum) == s) sums.push_back(add_stage(w, c.stages[s], 0.0));
            }
        if (sums.empty()) break;
        const auto k = static_cast<std::size_t>(static_cast<double>(sums.size()) * (1 - pass));
        std::nth_element(sums.begin(), sums.begin() + static_cast<std::ptrdiff_t>(k), sums.end());
        c.stages[static_cast<std::size_t>(s)].threshold = static_cast<float>(sums[k]);
    }
    return c;
}

// `stages` stages of `per_stage` learners.
inline CovCascade random_cov_cascade(unsigned seed, int stages, int per_stage, const GrayView& image,
                                     Size window = {64, 128}, double pass = 0.7) {
    return random_cov_cascade(seed, std::vector<int>(static_cast<std::size_t>(stages), per_stage), image, window, pass);
}

}  // namespace cascade::test
