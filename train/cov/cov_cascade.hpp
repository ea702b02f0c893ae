// The covariance cascade's training loop (Tuzel, Porikli and Meer's rejection cascade): level after level,
// keep the positives the cascade so far accepts, mine negatives it accepts from the negative images
// (train/negative_miner.hpp: every scale, every position on the family's grid, in a random walk, with the
// margin the samples carry; the classifier is the detector's code), train a level on both (cov_stage.hpp),
// until the cascade's false-positive rate on the mined images reaches the target (the miner's accepted windows
// per window scanned), the level count reaches max_stages, or the images yield fewer than min_negatives.
//
// Checkpoints (train/stage_checkpoint.hpp, kind "cascade-train-cov"): after every level, with the miner's
// cursor. Every random choice is seeded by the level it belongs to and the miner continues from its cursor, so
// a resumed run ends with the cascade of an uninterrupted one, on any number of threads.
// With mine_afresh, a resume keeps the checkpoint's levels but not its miner: the checkpoint may have been
// written with other mining settings (negatives, per_image, mine_scale, min_negatives: mining_fingerprint),
// and the miner starts at the beginning of every image's universe under the new ones (windows scanned before
// are scanned again: those the earlier levels rejected are rejected again). So a cascade whose miner has used
// up its images at one pyramid scale goes on with more windows of the same images at a finer one.
#pragma once

#include <string>
#include <vector>

#include "common/model.hpp"
#include "data/negative_images.hpp"
#include "data/progress.hpp"
#include "train/cov/cov_final_svm.hpp"
#include "train/cov/cov_samples.hpp"
#include "train/cov/cov_stage.hpp"
#include "train/stage_checkpoint.hpp"

namespace cascade::train::cov {

struct CascadeOptions {
    Size window{64, 128};
    int max_stages = 30;
    double target_false_alarm = 1e-4;
    int negatives = 4000;     // mined for each level
    int per_image = 16;       // at most this many from one image per visit
    double mine_scale = 1.2;  // pyramid scale factor of mining
    int min_negatives = 200;
    StageOptions stage;
    FinalSvmOptions final_svm;  // after the levels (cov_final_svm.hpp; not checkpointed)
    std::string checkpoint_dir;
    bool resume = false;
    bool mine_afresh = false;        // with resume: see above
    std::string fingerprint;         // the data and every setting of the levels' training
    std::string mining_fingerprint;  // the mining settings
};

struct TrainingOutcome {
    CovCascade cascade;
    std::vector<StageSummary> stages;
    double seconds = 0.0;  // sessions before a resume included
    std::string stop_reason;
};

constexpr int kProgressUnits = 100;
constexpr const char* kProgressUnit = "% of log FPPW target";

TrainingOutcome train_cascade(CovSamples positives, const std::vector<data::NegativeImage>& negatives,
                              const CascadeOptions& options, data::Progress& progress);

}  // namespace cascade::train::cov
