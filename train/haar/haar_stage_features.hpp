// cascade-train haar: the stage trainer (train/lbp/stage_trainer.hpp) over Haar features, each weak learner a
// threshold stump (or, with config.boost.max_depth > 1, a tree of them: train/lbp/ordered_tree.hpp) on features'
// variance-normalised values, as the detectors compute them (HaarWindow of
// common/haar_eval.hpp on the window-sized sample: OpenCV's normalisation over (1, 1, w - 2, h - 2)).
//
// Values are precomputed once per sample as 8-bit bins (the stage trainer's code table, one byte per feature
// and sample: features x (positives + negatives) bytes): each feature's 255 bin edges are quantiles of its
// values on the positives, and a stump cuts at an edge, so its threshold is that edge's float and a value
// falls on the same side in training as in the detector. Positives the detector refuses (too little contrast)
// are left out. Checkpoints as lbp-opencv's (train/lbp/lbp_checkpoint.hpp, with the Haar cascade); resumed, the
// bins are found again from the positives, and each node's threshold names its cut.
#pragma once

#include "train/haar/haar_features.hpp"
#include "train/lbp/stage_trainer.hpp"

namespace cascade::train::haar {

using HaarStageResult = lbp::StageResult<HaarCascade>;

// config.features: a random pool of that many features of the set (0: all).
HaarStageResult train_haar_stages(const lbp::StageTrainConfig& config, HaarMode mode, const lbp::LbpTrainingData& data,
                                  lbp::StageTrainingObserver& observer);

}  // namespace cascade::train::haar
