// opencv_traincascade's training of an LBP cascade (CvCascadeClassifier::train), on this toolkit's data, miner
// and checkpoints: a cascade in OpenCV's structure (per-stage sums of subset stumps, common/model.hpp's
// SumPolicy::per_stage) that common/opencv_cascade_xml.hpp writes for cv::CascadeClassifier.
//
// Each stage: (1) the positives that the cascade so far accepts (computed from their codes with the detectors'
// rule); (2) `negatives` fresh hard negatives mined from the negative images at every scale and position
// (train/negative_miner.hpp) with the cascade so far, whose acceptance ratio (negatives found per window
// scanned) is the cascade's false alarm rate; training stops when it is at most max_false_alarm ^ stages (as
// OpenCV's "required leaf false alarm rate achieved"); (3) boost_stage (train/lbp/stage_boost.hpp) on them;
// (4) the stage is appended and a checkpoint written. Stops also at `stages`, when no positive is left, or
// when the miner has scanned every window without finding the negatives a stage needs (the model so far is
// the result: a stage needs negatives to be trained against).
//
// Features: every MB-LBP feature of the window (OpenCV's set) or a random pool of `features` of them. The
// result depends on the settings, the data and the seed only: the miner's walk is seeded, boosting is
// sequential and features are chosen with ties to the lowest index. A checkpoint holds the cascade and the
// miner's cursor, which is all a stage needs: resumed, a run gives the model an uninterrupted one gives.
#pragma once

#include <cstdint>
#include <string>

#include "train/lbp/lbp_checkpoint.hpp"
#include "train/lbp/lbp_trainer.hpp"
#include "train/lbp/stage_boost.hpp"

namespace cascade::train::lbp {

struct StageTrainConfig {
    Size window{24, 24};
    int stages = 20;      // numStages
    StageBoostParams boost;  // boostType, minHitRate, maxFalseAlarmRate, weightTrimRate, maxWeakCount
    int negatives = 1000;  // numNeg: hard negatives mined for each stage
    int features = 0;      // 0: every feature of the window
    double mine_scale_factor = 1.1;
    int mine_per_image = 16;
    std::uint64_t seed = 1;
    std::string checkpoint;  // empty: no checkpoints
    bool resume = false;
};

// Throws cli::UsageError naming the first option out of range.
void validate(const StageTrainConfig& config);

struct StageEvent {
    int stage = 0;  // 0-based
    int stages = 0;
    int positives = 0;  // reaching the stage, of
    int positives_total = 0;
    int negatives = 0;        // mined for it
    long long scanned = 0;    // windows scanned to mine them
    double acceptance = 1.0;  // negatives / scanned: the cascade's false alarm rate before the stage
    BoostedStage boosted;
    double seconds = 0.0;  // to mine and train it
};

class StageTrainingObserver {
public:
    virtual ~StageTrainingObserver() = default;
    virtual void stage_started(int /*stage*/, int /*positives*/, int /*negatives*/, double /*acceptance*/) {}
    virtual void weak_added(const StageProgress&) {}
    virtual void stage_added(const StageEvent&) {}
    virtual void checkpointed(int /*stages*/, const std::string& /*path*/) {}
    virtual void note(const std::string&) {}
};

struct StageTrainingResult {
    LbpCascade cascade;
    std::string stopped_because;
    double false_alarm = 1.0;  // the last acceptance ratio measured by the miner
    long long windows_scanned = 0;
    long long negatives_mined = 0;
};

TrainingSettings stage_training_settings(const StageTrainConfig& config, const LbpTrainingData& data);

StageTrainingResult train_lbp_stages(const StageTrainConfig& config, const LbpTrainingData& data,
                                     StageTrainingObserver& observer);

}  // namespace cascade::train::lbp
