// The LBP trainers' checkpoint (WaldBoost's and the OpenCV-style stage trainer's, whose Haar family uses it
// with a Haar cascade): everything beside the training data and the settings that the training needs to
// continue exactly as an uninterrupted run would.
//
// Two files: the cascade so far in the project's XML at `path`.xml (cascade-detect can try it), and the state
// at `path`. The model is written first and the state second, and the state names its number of weak learners;
// since training only appends, a kill between the two writes leaves a newer model whose first weak learners
// are exactly the state's, and loading cuts it back to them. The state records a hash of the model it was
// written with (cut back, the model must give it again) and ends in a checksum (train/checkpoint_file.hpp);
// counts are checked. The checkpoint of a run that ended records why (`finished`): resuming it trains no further.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/model.hpp"
#include "train/negative_miner.hpp"

namespace cascade::train::lbp {

// Named settings that decide the course of training (options and a fingerprint of the data); a checkpoint
// resumes only under the same ones.
using TrainingSettings = std::vector<std::pair<std::string, std::string>>;

// Cascade: LbpCascade (both LBP trainers) or HaarCascade (the stage trainer's Haar family).
template <class Cascade>
struct TrainingState {
    Cascade cascade;
    std::vector<std::optional<NegativeWindow>> pool;  // per negative slot; empty: slot not live (stage trainer: none)
    MiningCursor cursor;
    double reach_at_refill = 1.0;  // fraction of all negative windows that passed the cascade at the last refill
    int pool_at_refill = 0;        // live negatives right after that refill
    long long windows_scanned = 0;
    long long negatives_mined = 0;
    std::string finished;  // why the run stopped; empty while it goes on
};
using LbpTrainingState = TrainingState<LbpCascade>;

std::string checkpoint_model_path(const std::string& path);

template <class Cascade>
void save_checkpoint(const std::string& path, const TrainingState<Cascade>& state, const TrainingSettings& settings);
inline void save_lbp_checkpoint(const std::string& path, const LbpTrainingState& state,
                                const TrainingSettings& settings) {
    save_checkpoint(path, state, settings);
}

// nullopt when there is no checkpoint at `path`; InputError when it cannot be read or was written under other
// settings (naming the first that differs).
template <class Cascade>
std::optional<TrainingState<Cascade>> load_checkpoint(const std::string& path, const TrainingSettings& settings);
inline std::optional<LbpTrainingState> load_lbp_checkpoint(const std::string& path, const TrainingSettings& settings) {
    return load_checkpoint<LbpCascade>(path, settings);
}

}  // namespace cascade::train::lbp
