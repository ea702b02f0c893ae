// One stage of the HoG cascade: AdaBoost over per-block linear SVMs (Bilgic 2010, Sec. 5.4), discrete (Zhu
// et al.'s +-alpha votes) or real (responses per bin of the SVM's projection; weak_response.hpp).
//
// Each sample starts with the sum it brings from the stages before (0 for per-stage sums; for a running sum,
// the cascade's sum so far, so the stage continues the boosting: Xiao et al.'s boosting chain, Bourdev and
// Brandt's soft cascade). Weights start at exp(-y sum), each class's scaled to a total of 1/2. Each round
// samples blocks_per_round distinct blocks of the pool (125: "the best of about 59 random samples is nearly as
// good as the best of all", with margin), trains one weighted SVM per block (block_svm.hpp), in parallel, fits
// its response and keeps the one with the lowest score (weighted error, or Z; ties: the earlier sample);
// weights become w exp(-y h) and are renormalised. After each round the stage threshold is the largest float
// that keeps ceil(min_hit_rate * P) positives (sum >= threshold), and the stage is done when it passes at most
// max_false_alarm of the negatives, or after max_weaks rounds. With calibration positives, those P are the
// calibration positives alone: they fit no learner, so the threshold keeps of them what it keeps of unseen
// positives (on the fitting positives, whose sums the learners were fitted to, it keeps more: on INRIA, 0.998
// of them per stage kept 0.98-0.99 of held-out crops).
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
    int bins = 0;  // 0: discrete AdaBoost; 2..kHogMaxBins: real AdaBoost over that many bins of the projection
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
    double score = 0.0;      // weighted error (discrete) or Z (real); weak_response.hpp
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

// Positives that only set the stage threshold (none: the fitting positives set it), with the sum each brings
// from the stages before (empty: all 0).
struct Calibration {
    const WindowSet* windows = nullptr;
    std::vector<double> sums;
};

// Trains stage `stage_index` (which seeds its block samples) on the given windows with the given pool.
// `initial_sums` holds each sample's sum before the stage (positives, then negatives), or is empty (all 0).
// The hit rates reported are the calibration positives' where there are any. `on_weak` is called after
// every round.
StageResult train_stage(const WindowSet& positives, const WindowSet& negatives, const std::vector<double>& initial_sums,
                        const Calibration& calibration, const std::vector<Rect>& pool, int stage_index,
                        const StageOptions& options, const std::function<void(const WeakReport&)>& on_weak);

// The largest float t with at least `keep` of `sums` >= t (as doubles). Requires 1 <= keep <= sums.size().
float threshold_keeping(std::vector<double> sums, std::size_t keep);

// Sets result's threshold to keep ceil(min_hit_rate * P) of the positives (the first num_positives of `sums`,
// the others negatives; both at least 1), and its hit and false-alarm rates at that threshold, as run_stages
// decides (sum >= threshold passes).
void set_threshold(const std::vector<double>& sums, int num_positives, double min_hit_rate, StageResult& result);

}  // namespace cascade::train::hog
