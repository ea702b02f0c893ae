// WaldBoost training of an LBP cascade (common/model.hpp, SumPolicy::running: one weak learner per stage,
// each stage's threshold its SPRT rejection threshold, the last one the final decision).
//
// The positives are split by source photo: most fit the weak learners, and their running sums set the
// training thresholds that decide which negatives stay in the pool and which windows are mined. Those sums
// are optimistic (the response tables were fitted to them): thresholds at their edge, stage after stage, cut
// away unseen positives. So the written model's thresholds come from the calibration positives, which the
// weak learners never saw, by direct backward pruning (train/backward_pruning.hpp): the miss rate they measure
// holds on new data.
//
// Each round: (1) when the live negatives fall below refill_below x the pool, hard negatives are mined
// (train/negative_miner.hpp) into the slots of the rejected ones, and a checkpoint is written; (2) sample
// weights exp(-yH) are normalised per class and trimmed; (3) the pool feature with the smallest Z becomes a
// domain-partitioning weak learner (train/lbp/weak_fit.hpp); (4) its SPRT threshold (train/wald_threshold.hpp)
// rejects live samples, which leave training. Training stops at `weak_learners`, when the estimated
// false-positive rate per window reaches `target_fpr`, or when the miner has scanned every window without
// finding enough hard negatives. Then the model's thresholds are set: by backward pruning on the calibration
// positives, or (without calibration) the training thresholds with the last raised to spend what is left of
// the miss budget.
//
// With `accept`, each stage also gets WaldBoost's acceptance threshold, with beta = 0: just above the largest
// running sum among the live negatives (the bootstrapped sample of the windows that reach the stage), and
// raised above every hard negative mined later that it would accept (the pool's sums are optimistic: the weak
// learners were fitted to push them down). Positives at or above it are decided and leave training, as
// rejected samples do. The written model keeps the acceptance thresholds (none on its last stage, which decides
// anyway) and backward pruning respects them. The result depends on
// the settings, the data and the seed only: not on the thread count, and not on interruptions when resumed
// from a checkpoint. Memory: the code table (features x (positives + negatives) bytes) dominates.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/image.hpp"
#include "common/model.hpp"
#include "data/negative_images.hpp"
#include "train/lbp/lbp_checkpoint.hpp"

namespace cascade::train::lbp {

struct LbpTrainConfig {
    Size window{64, 128};
    int weak_learners = 512;    // at most
    double alpha = 0.05;        // target miss rate
    double calibration = 0.25;  // fraction of the positive groups that set the model's thresholds, not fitted
    bool accept = false;        // WaldBoost acceptance thresholds (see above)
    double target_fpr = 0.0;    // stop once the training cascade's estimated false-positive rate is at most this
    int features = 20000;       // size of the random feature pool
    int min_cell = 1;           // the pool's cells are at least this many pixels wide and high
    int code_bins = 256;        // responses per table: 256 (one per code) or 59 (uniform LBP, code_bins.hpp)
    int negatives = 4000;       // size of the negative pool
    double refill_below = 0.5;  // mine when fewer than this fraction of the pool is live
    double trim = 0.05;         // weight trimming: the lightest samples holding this fraction of the weight
    double smoothing = 20.0;    // eps = smoothing / samples in the response tables
    double shrinkage = 1.0;     // response tables times this (boosting's learning rate)
    double bin_prior = 0.0;     // each table bin's response times n / (n + this), n its samples (0: off)
    double mine_scale_factor = 1.1;
    int mine_per_image = 16;
    std::uint64_t seed = 1;
    int threads = 0;            // 0: all cores
    std::string checkpoint;     // empty: no checkpoints
    int checkpoint_every = 25;  // also checkpoint after this many weak learners (0: only at refills)
    bool resume = false;        // continue from `checkpoint` when it exists
};

// Throws InputError naming the first option that is out of range or contradicts another.
void validate(const LbpTrainConfig& config);

struct LbpTrainingData {
    std::vector<GrayImage> positives;          // window-sized
    std::vector<std::string> positive_groups;  // source photo of each positive (empty: each its own)
    std::vector<data::NegativeImage> negatives;
};

struct MiningEvent {
    int weak_learners = 0;  // in the cascade being mined against
    int needed = 0;
    int mined = 0;
    long long scanned = 0;
    int visits = 0;               // image visits
    long long scanned_total = 0;  // since training began, of
    long long universe = 0;       // every window of every negative image
    double reach = 1.0;           // mined / scanned: the cascade's false-positive rate per window
    bool exhausted = false;
};

struct WeakEvent {
    int index = 0;  // 0-based
    int limit = 0;
    LbpFeature feature;
    double error = 0.0;
    double z = 0.0;
    float threshold = 0.f;
    float accept = 0.f;          // acceptance threshold (+inf: none)
    int positives_accepted = 0;  // fitting positives accepted by this stage
    int positives_live = 0;  // fitting positives (those not set aside for calibration)
    int positives_total = 0;
    int negatives_before = 0;
    int negatives_rejected = 0;
    int negatives_mined = 0;        // since the previous weak learner
    long long windows_scanned = 0;  // since the previous weak learner
    double fpr_estimate = 1.0;      // of the cascade so far, per window
};

class LbpTrainingObserver {
public:
    virtual ~LbpTrainingObserver() = default;
    virtual void mined(const MiningEvent&) {}
    virtual void weak_added(const WeakEvent&) {}
    virtual void checkpointed(int /*weak_learners*/, const std::string& /*path*/) {}
    virtual void note(const std::string&) {}
};

struct LbpTrainingResult {
    LbpCascade cascade;
    std::string stopped_because;
    double fpr_estimate = 1.0;         // of the training cascade (not the written model), per window
    double calibration_miss_rate = 0;  // of the written model on the positives that set its thresholds
    long long windows_scanned = 0;
    long long negatives_mined = 0;
};

// Names and values of what decides the course of training, for checkpoints: the options that matter and a
// fingerprint of the data (every positive pixel, every negative image's path and size).
TrainingSettings training_settings(const LbpTrainConfig& config, const LbpTrainingData& data);
// The data's part of that: a fingerprint of the positives and of the negative images (both LBP trainers).
TrainingSettings data_settings(const LbpTrainingData& data);

LbpTrainingResult train_lbp(const LbpTrainConfig& config, const LbpTrainingData& data, LbpTrainingObserver& observer);

}  // namespace cascade::train::lbp
