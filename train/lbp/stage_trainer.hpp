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
// The feature family is a StageFeatures (below): LBP's subset stumps here, Haar's threshold stumps in
// train/haar/haar_stage_features.hpp; the run itself (mining, boosting, stopping) is the same for both.
//
// Features: every MB-LBP feature of the window (OpenCV's set) or a random pool of `features` of them. The
// result depends on the settings, the data and the seed only: the miner's walk is seeded, boosting is
// sequential and features are chosen with ties to the lowest index. A checkpoint holds the cascade and the
// miner's cursor, which is all a stage needs: resumed, a run gives the model an uninterrupted one gives.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "train/lbp/lbp_checkpoint.hpp"
#include "train/lbp/lbp_trainer.hpp"
#include "train/lbp/stage_boost.hpp"
#include "train/negative_miner.hpp"

namespace cascade::train::lbp {

constexpr int kMaxTreeDepth = 25;  // CvDTreeParams' bound on max_depth

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

struct StageRunOutcome {
    std::string stopped_because;
    double false_alarm = 1.0;  // the last acceptance ratio measured by the miner
    long long windows_scanned = 0;
    long long negatives_mined = 0;
};

template <class Cascade>
struct StageResult : StageRunOutcome {
    Cascade cascade;
};
using StageTrainingResult = StageResult<LbpCascade>;

// What a checkpoint holds beside the cascade.
struct StageRunState {
    MiningCursor cursor;
    double acceptance = 1.0;
    long long scanned = 0, mined = 0;
    std::string finished;
};

// A feature family for the stage trainer: its pool, the codes of windows on it (8 bits per feature and
// window), the cascade the boosted stages make and that cascade as the miner's classifier.
class StageFeatures {
public:
    virtual ~StageFeatures() = default;
    virtual int size() const = 0;
    virtual bool ordered_codes() const = 0;  // bins of a scalar value (threshold stumps), not categories
    // Codes of the window-sized `windows` into `slots`; the first call gets the positives.
    virtual void fill(CodeTable& codes, const std::vector<int>& slots, const std::vector<GrayImage>& windows,
                      int threads) = 0;
    // Whether the detector rejects the window before any stage (Haar: too little contrast).
    virtual bool refused(const GrayImage&) const { return false; }
    virtual void append(const BoostedStage& stage) = 0;
    virtual std::unique_ptr<WindowClassifier> classifier() const = 0;  // of the cascade so far
    virtual bool checkpoints() const { return false; }
    virtual void save_checkpoint(const std::string& /*path*/, const StageRunState&) const {}
    // The stages and state of the checkpoint at `path` (appended to the cascade), nullopt when there is none.
    virtual std::optional<StageRunState> resume(const std::string& /*path*/, std::vector<BoostedStage>& /*stages*/) {
        return std::nullopt;
    }
};

// The run over any family; `data.positives` must be window-sized.
StageRunOutcome train_stages(const StageTrainConfig& config, const LbpTrainingData& data, StageFeatures& features,
                             StageTrainingObserver& observer);

TrainingSettings stage_training_settings(const StageTrainConfig& config, const LbpTrainingData& data);

StageTrainingResult train_lbp_stages(const StageTrainConfig& config, const LbpTrainingData& data,
                                     StageTrainingObserver& observer);

}  // namespace cascade::train::lbp
