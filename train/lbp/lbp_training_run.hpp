// One run of the WaldBoost LBP trainer (train_lbp, lbp_trainer.hpp): the sample pool (positives, then the
// negative pool that the miner refills), the running sums and code table over it, and the cascade being built.
// lbp_trainer.cpp has its course (start or resume, mine, add weak learners, checkpoint, finalize);
// lbp_training_steps.cpp the steps on the pool (placing mined negatives, thresholds, one weak learner).
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "train/lbp/code_table.hpp"
#include "train/lbp/lbp_checkpoint.hpp"
#include "train/lbp/lbp_trainer.hpp"
#include "train/lbp/weak_fit.hpp"
#include "train/negative_miner.hpp"
#include "train/wald_threshold.hpp"

namespace cascade::train::lbp {

// Slots [0, positives) hold the positives, [positives, positives + negatives) the negative pool.
class LbpTrainingRun {
public:
    LbpTrainingRun(const LbpTrainConfig& config, const LbpTrainingData& data, LbpTrainingObserver& observer);

    LbpTrainingResult run();

private:
    int slots() const { return positives_ + negatives_; }
    std::vector<int> live_slots(int first, int end) const;
    // Live positives that fit the weak learners (all live positives without calibration).
    std::vector<int> live_fitting_positives() const;
    int calibration_total() const;
    int fitting_total() const { return positives_ - calibration_total(); }
    int live_negatives() const { return static_cast<int>(live_slots(positives_, slots()).size()); }
    double negative_reach() const {
        return pool_at_refill_ > 0 ? reach_at_refill_ * live_negatives() / pool_at_refill_ : 0.0;
    }
    int accepted_fitting_positives() const;
    // Running sum of weak learners [0, count) for slot s from the code table; `decided` gets -1 when a stage
    // rejects it, +1 when a stage accepts it, 0 when it passes them all.
    double replay(int s, std::size_t count, int& decided) const;

    void start();
    void resume(const LbpTrainingState& state);
    void place_negatives(const std::vector<int>& targets, const std::vector<NegativeWindow>& windows,
                         const std::vector<GrayImage>& crops);
    void raise_acceptance(const std::vector<int>& negatives);
    bool refill();
    void add_weak();
    RejectionInput rejection_input() const;
    void reject_below(float threshold);
    float accept_above_negatives();
    std::string train_on();  // adds weak learners until a stop; returns why it stopped
    double finalize();       // returns the miss rate it leaves on the positives that set the thresholds
    void checkpoint(const std::string& finished = "");  // `finished`: why the run stopped (its last checkpoint)

    const LbpTrainConfig& config_;
    const LbpTrainingData& data_;
    LbpTrainingObserver& observer_;
    const TrainingSettings settings_;
    const int positives_;
    const int negatives_;
    const std::vector<char> calibrates_;  // per positive
    const std::vector<LbpFeature> pool_;
    const TableFit table_;
    std::unordered_map<std::uint64_t, int> pool_index_;
    CodeTable codes_;
    std::vector<double> score_;  // running sum per slot
    std::vector<char> live_;
    std::vector<char> accepted_;              // per slot: decided by an acceptance threshold (not live)
    std::vector<NegativeWindow> provenance_;  // per negative slot
    LbpCascade cascade_;
    std::vector<int> weak_feature_;  // pool index of each weak learner
    NegativeMiner miner_;
    double reach_at_refill_ = 1.0;
    int pool_at_refill_ = 0;
    long long windows_scanned_ = 0, negatives_mined_ = 0;
    long long scanned_since_weak_ = 0;
    int mined_since_weak_ = 0;
    std::string finished_;  // a resumed checkpoint's reason for stopping: nothing is left to train
};

}  // namespace cascade::train::lbp
