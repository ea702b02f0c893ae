// One stage of the HoG cascade: discrete AdaBoost over per-block linear SVMs (Bilgic 2010, Sec. 5.4).
//
// Weights start at 1/(2P) on each positive and 1/(2N) on each negative. Each round samples blocks_per_round
// distinct blocks of the pool (125: "the best of about 59 random samples is nearly as good as the best of all",
// with margin), trains one weighted SVM per block (block_svm.hpp), in parallel, and keeps the one with the
// lowest weighted error e (ties: the earlier sample). Its vote is alpha = 1/2 ln((1 - e) / e), its response
// +alpha when it fires and -alpha otherwise; weights become w exp(-alpha y h) and are renormalised. After each
// round the stage threshold is the largest float that keeps ceil(min_hit_rate * P) positives (sum >= threshold),
// and the stage is done when it passes at most max_false_alarm of the negatives, or after max_weaks rounds.
// Stage sums are accumulated exactly as run_stages does (double, learner order), and every decision is
// hog_weak_fires on hog_block_descriptor: the stage behaves in training exactly as it will in the detector.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "common/geometry.hpp"
#include "common/model.hpp"
#include "train/hog/block_svm.hpp"
#include "train/hog/window_set.hpp"

namespace cascade::train::hog {

struct StageOptions {
    double min_hit_rate = 0.99;
    double max_false_alarm = 0.65;
    int blocks_per_round = 125;
    int max_weaks = 200;
    double resample_factor = 1.0;  // SVM problem size: resample_factor * (P + N) instances
    SvmOptions svm;
    std::uint64_t seed = 1;
    int threads = 0;
};

struct WeakReport {
    int index = 0;           // in the stage, from 0
    Rect block;
    double weighted_error = 0.0;
    float vote = 0.f;
    float threshold = 0.f;   // the stage threshold after this learner
    double hit_rate = 0.0;   // of the stage on its positives, at that threshold
    double false_alarm = 0.0;
};

struct StageResult {
    std::vector<HogWeak> weaks;
    float threshold = 0.f;
    double hit_rate = 0.0;
    double false_alarm = 0.0;
};

// Trains stage `stage_index` (which seeds its block samples) on the given windows with the given pool.
// `on_weak` is called after every round.
StageResult train_stage(const WindowSet& positives, const WindowSet& negatives, const std::vector<Rect>& pool,
                        int stage_index, const StageOptions& options,
                        const std::function<void(const WeakReport&)>& on_weak);

// The largest float t with at least `keep` of `sums` >= t (as doubles). Requires 1 <= keep <= sums.size().
float threshold_keeping(std::vector<double> sums, std::size_t keep);

}  // namespace cascade::train::hog
