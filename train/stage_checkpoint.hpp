// The checkpoint of the trainers that write one after every stage (cascade-train hog and cov): <dir>/cascade.xml
// (the stages so far, the project's format) and then <dir>/state.txt (settings fingerprint, the model's hash,
// per-stage rates, training time and, for a trainer that mines with train/negative_miner.hpp, the miner's
// cursor; train/checkpoint_file.hpp: checksummed), each written atomically. `kind` names the trainer in
// state.txt ("cascade-train-hog", "cascade-train-cov"): one trainer's checkpoint is refused by the other.
#pragma once

#include <string>
#include <vector>

#include "common/model.hpp"
#include "train/negative_miner.hpp"

namespace cascade::train {

struct StageSummary {
    int learners = 0;
    double hit_rate = 0.0;
    double false_alarm = 0.0;
};

struct StageCheckpoint {
    std::string fingerprint;
    double seconds = 0.0;
    std::vector<StageSummary> stages;
    MiningCursor cursor;  // empty (no images) for a trainer that keeps none
};

// Cascade: HogCascade or CovCascade.
template <class Cascade>
void write_stage_checkpoint(const std::string& dir, const std::string& kind, const Cascade& cascade,
                            const StageCheckpoint& state);

// Reads the checkpoint in `dir` into `cascade`, cut back to the stages that state.txt records (a stop between
// the two writes leaves cascade.xml one stage ahead), which must then be the cascade the state was written with
// (its hash). InputError naming the file for what cannot be read, is out of range or does not match.
template <class Cascade>
StageCheckpoint read_stage_checkpoint(const std::string& dir, const std::string& kind, Cascade& cascade);

// The start of a run: a fresh state carrying `fingerprint` (resume false), or the checkpoint in `dir` read into
// `cascade`, which must have been written with the same fingerprint (InputError naming `dir` otherwise).
template <class Cascade>
StageCheckpoint start_stage_checkpoint(bool resume, const std::string& dir, const std::string& kind,
                                       const std::string& fingerprint, Cascade& cascade);

}  // namespace cascade::train
