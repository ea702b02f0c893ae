// The HoG cascade's training loop (Bilgic 2010, Sec. 5.4): stage after stage, mine negatives with the cascade
// so far (hog_mining.hpp), train a stage on them and on the positives the cascade so far accepts
// (stage_trainer.hpp), until the cascade's false-positive rate reaches the target, the stage count reaches
// max_stages, or the negative images no longer yield min_negatives false positives.
//
// The false-positive rate is the one mining measures: false positives per window scanned on the negative
// images. The thesis stops on the product of the stages' false-alarm rates on their own training negatives
// instead; but each stage is fitted to those negatives, and on this data the product ends up five to ten
// times below the rate the cascade really has (1e-5 against 5e-5 after 20 stages, docs/benchmarks.md).
//
// Positives rejected by earlier stages are left out of later ones (as OpenCV's traincascade does), so each
// stage's hit rate is conditional and the cascade keeps at least min_hit_rate^stages of the positives.
//
// Checkpoints (train/stage_checkpoint.hpp): after every stage. With resume, training continues after the last completed
// stage; every random choice is seeded by the stage it belongs to, so a resumed run ends with the same cascade
// as an uninterrupted one.
#pragma once

#include <string>
#include <vector>

#include "common/model.hpp"
#include "data/negative_images.hpp"
#include "data/progress.hpp"
#include "train/hog/final_svm.hpp"
#include "train/stage_checkpoint.hpp"
#include "train/hog/hog_mining.hpp"
#include "train/hog/stage_trainer.hpp"
#include "train/hog/window_set.hpp"

namespace cascade::train::hog {

struct CascadeOptions {
    Size window{64, 128};
    SumPolicy policy = SumPolicy::per_stage;  // running: each stage continues the sum of the stages before
    int max_stages = 30;
    double target_false_alarm = 5e-5;
    int min_negatives = 200;  // stop when mining finds fewer
    StageOptions stage;
    MiningOptions mining;
    // After the boosted stages, a last stage of one linear SVM over a block grid (final_svm.hpp) on
    // final_negatives negatives mined with them (0: none), final_mining's count ignored, per bootstrapping round.
    int final_negatives = 0;
    FinalSvmOptions final_svm;
    MiningOptions final_mining;
    std::string checkpoint_dir;  // empty: no checkpoints
    bool resume = false;
    // Identifies the data and every setting that changes the result; a checkpoint only resumes with the same.
    std::string fingerprint;
};

struct TrainingOutcome {
    HogCascade cascade;
    std::vector<StageSummary> stages;
    double seconds = 0.0;  // training time, sessions before a resume included
    std::string stop_reason;
};

// The progress bar's scale: percent of the way, in log false-positive rate, from 1 to the target.
constexpr int kProgressUnits = 100;
constexpr const char* kProgressUnit = "% of log FPPW target";

// `positives` are filtered stage by stage (pass them with std::move to spare a copy). `progress` should count
// kProgressUnits units. `calibration`: positives that set the boosted stages' thresholds and fit no learner
// (stage_trainer.hpp), filtered stage by stage as the others; empty: the fitting positives set them. The
// final SVM stage fits and sets its threshold on the fitting positives.
TrainingOutcome train_cascade(WindowSet positives, const std::vector<data::NegativeImage>& negatives,
                              const CascadeOptions& options, data::Progress& progress,
                              WindowSet calibration = WindowSet());

}  // namespace cascade::train::hog
