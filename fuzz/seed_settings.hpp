// The training settings that make_seeds writes its checkpoints under and the checkpoint harnesses resume with.
#pragma once

#include "train/lbp/lbp_checkpoint.hpp"

namespace cascade::fuzz {

inline const train::lbp::TrainingSettings kSeedSettings = {{"window", "64x128"}, {"seed", "1"}};

}  // namespace cascade::fuzz
