// The HoG trainer's checkpoint, written after every stage: <dir>/cascade.xml (the stages so far, the project's
// format) and then <dir>/state.txt (settings fingerprint, the model's hash, per-stage rates, training time;
// train/checkpoint_file.hpp: checksummed), each written atomically.
#pragma once

#include <string>
#include <vector>

#include "common/model.hpp"

namespace cascade::train::hog {

struct StageSummary {
    int learners = 0;
    double hit_rate = 0.0;
    double false_alarm = 0.0;
};

struct HogCheckpoint {
    std::string fingerprint;
    double seconds = 0.0;
    std::vector<StageSummary> stages;
};

void write_hog_checkpoint(const std::string& dir, const HogCascade& cascade, const HogCheckpoint& state);

// Reads the checkpoint in `dir` into `cascade`, cut back to the stages that state.txt records (a stop between
// the two writes leaves cascade.xml one stage ahead), which must then be the cascade the state was written with
// (its hash). InputError naming the file for what cannot be read, is out of range or does not match.
HogCheckpoint read_hog_checkpoint(const std::string& dir, HogCascade& cascade);

}  // namespace cascade::train::hog
