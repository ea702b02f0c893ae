// The cascade's last stage as one linear SVM over a dense grid of blocks of the whole window (Dalal and
// Triggs' layout: 16x16 blocks at stride 8, 105 in a 64x128 window; our integral-histogram block descriptor or
// Dalal and Triggs' own, common/dalal_triggs_descriptor.hpp), or over several
// grids (coarser ones add blocks that pool larger areas, as Zhu et al.'s variable-size blocks do), trained on
// the windows the boosted stages pass: the positives they keep and hard negatives mined with them.
//
// With a running sum, the cascade's sum so far enters the SVM as one more feature, so that the stage decides
// on both: with w0 its weight (> 0), the stage is the grid's blocks, each a learner with the SVM's weights for
// that block, bias 0, no cut and slope 1 / w0, which add (w . x) / w0 to the running sum, i.e. the SVM's
// decision value divided by w0 less its bias. The stage threshold then keeps min_hit_rate of the positives
// (the bias only shifts it). With per-stage sums the SVM sees the blocks alone and the slope is 1; so is it
// when w0 <= 0 (the sum so far then enters with weight 1, whatever the SVM made of it).
//
// Bootstrapping (Dalal and Triggs, Sec. 3): the problem grows round by round. Each round after the first adds
// the negatives that the boosted stages and the previous round's SVM accept at its margin (decision value at
// least -1: the windows that the SVM's loss still counts), and the SVM is trained again on all of them. The
// problem keeps each window's grid descriptor, not its integral histograms (15 KB a window against 302 KB), so
// that several rounds of hard negatives fit in memory.
//
// HOG-LBP (Wang, Han and Yan 2009; lbp_histograms): the window's non-overlapping 16x16 cells' uniform-LBP
// histograms (59 bins, each L1-normalised and square-rooted: common/lbp_uniform.hpp) follow the blocks in the
// SVM's descriptor, and each cell becomes two learners of the stage (kHogDescriptorLbpHistogram, bins 0-35 and
// 36-58: a HogWeak holds 36 weights), evaluated by the detectors as every other learner.
#pragma once

#include <string>
#include <vector>

#include "common/geometry.hpp"
#include "train/hog/block_svm.hpp"
#include "train/hog/stage_trainer.hpp"
#include "train/hog/window_set.hpp"

namespace cascade::train::hog {

struct BlockGridSpec {
    int block = 16;  // side of the grid's square blocks
    int stride = 8;  // the grid's step
};

struct FinalSvmOptions {
    std::vector<BlockGridSpec> grids{BlockGridSpec{}};  // the blocks of every grid, in this order
    SvmOptions svm{0.01, 0.01};
    double min_hit_rate = 0.99;
    int rounds = 1;   // mining and training rounds (bootstrapping)
    std::int32_t descriptor = kHogDescriptorIntegral;  // of every block (Dalal-Triggs: 16x16 grids only)
    bool lbp_histograms = false;  // the LBP cells after the blocks (every window added must have its LBP bins)
    int threads = 0;
};

// The grid: blocks of side `block` every `stride` pixels inside `window`, in reading order.
std::vector<Rect> block_grid(Size window, int block, int stride);
// The blocks of `grids` in `window`, one grid after the other.
std::vector<Rect> block_grids(Size window, const std::vector<BlockGridSpec>& grids);

constexpr int kLbpCellSide = 16;  // HOG-LBP's cells: non-overlapping, 32 in a 64x128 window

// "BLOCK/STRIDE[,BLOCK/STRIDE...]" (e.g. 16/8,32/16): cli::UsageError naming `option` for anything else.
std::vector<BlockGridSpec> parse_grids(const std::string& option, const std::string& text);

struct FinalSvm {
    StageResult stage;
    float margin = 0.f;  // the stage's sum where the SVM's decision value is -1
};

class FinalSvmProblem {
public:
    // `with_sum`: each window brings the running sum of the stages before (SumPolicy::running).
    FinalSvmProblem(Size window, bool with_sum, const FinalSvmOptions& options);

    // Appends `windows` as positives (label +1) or negatives (-1); `sums`: the sum each brings (with_sum only).
    void add(const WindowSet& windows, const std::vector<double>& sums, int label);
    int positives() const { return num_positives_; }
    int negatives() const { return static_cast<int>(labels_.size()) - num_positives_; }

    // Trains the SVM on everything added so far. Requires positives and negatives.
    FinalSvm train() const;

private:
    // The descriptor of window `view` into `row` (dims_ values, the sum excepted).
    void describe(const HogSampler& view, float* row) const;

    std::vector<Rect> grid_;
    std::vector<Rect> cells_;  // the LBP cells (lbp_histograms), after the grid's blocks in each row
    bool with_sum_;
    int dims_;
    FinalSvmOptions options_;
    std::vector<float> x_;  // dims_ per window: the grid's descriptors, then the sum (with_sum_)
    std::vector<int> labels_;
    std::vector<double> sums_;  // each window's sum so far (with_sum_), exactly as run_stages has it
    int num_positives_ = 0;
};

}  // namespace cascade::train::hog
