// The cascade's last stage as one linear SVM over a dense grid of blocks of the whole window (Dalal and
// Triggs' layout: 16x16 blocks at stride 8, 105 in a 64x128 window; here our block descriptor), trained on the
// windows the boosted stages pass: the positives they keep and hard negatives mined with them.
//
// With a running sum, the cascade's sum so far enters the SVM as one more feature, so that the stage decides
// on both: with w0 its weight (> 0), the stage is the grid's blocks, each a learner with the SVM's weights for
// that block, bias 0, no cut and slope 1 / w0, which add (w . x) / w0 to the running sum, i.e. the SVM's
// decision value divided by w0 less its bias. The stage threshold then keeps min_hit_rate of the positives
// (the bias only shifts it). With per-stage sums the SVM sees the blocks alone and the slope is 1; so is it
// when w0 <= 0 (the sum so far then enters with weight 1, whatever the SVM made of it).
#pragma once

#include <vector>

#include "common/geometry.hpp"
#include "train/hog/block_svm.hpp"
#include "train/hog/stage_trainer.hpp"
#include "train/hog/window_set.hpp"

namespace cascade::train::hog {

struct FinalSvmOptions {
    int block = 16;   // side of the grid's square blocks
    int stride = 8;   // the grid's step
    SvmOptions svm{0.01, 0.01};
    double min_hit_rate = 0.99;
    int threads = 0;
};

// The grid: blocks of side `block` every `stride` pixels inside `window`, in reading order.
std::vector<Rect> block_grid(Size window, int block, int stride);

// `initial_sums`: the running sum of each sample (positives, then negatives), or empty for per-stage sums.
// Requires positives and negatives.
StageResult train_final_svm(const WindowSet& positives, const WindowSet& negatives,
                            const std::vector<double>& initial_sums, const FinalSvmOptions& options);

}  // namespace cascade::train::hog
