// The covariance cascade's last stage as one linear SVM over the 36-vectors of a fixed grid of rectangles of
// the window (hog::block_grids' layout: square rectangles of side BLOCK every STRIDE pixels, several grids one
// after the other), trained on the windows the boosted levels pass: the positives they keep and hard negatives
// mined with them (the HoG trainer's final stage, train/hog/final_svm.hpp, on covariances).
//
// In the model the stage is one CovWeak per rectangle (the level's mapping and, tangent, the Karcher mean of the
// rectangle over the positives, cov_stage.hpp's rect_maps), each with the SVM's 36 weights of that rectangle,
// bias 0, no cut and slope 1: the stage's sum is the SVM's decision value less its bias, which the threshold
// holds. So the detectors (CPU and GPU) run it as any other level. The threshold keeps min_hit_rate of the
// positives on the detector's exact sums.
//
// With lbp_histograms the SVM also reads the uniform-LBP histograms of the square cells of lbp_cells (grids as
// `grids`; by default the window's non-overlapping 16x16 cells; 59 bins, L1-sqrt: HOG-LBP's,
// train/hog/final_svm.hpp), each cell two learners of descriptor kCovDescriptorLbpHistogram (bins 0-35 and 36-58)
// after the rectangles' learners.
//
// Bootstrapping (Dalal and Triggs): each round after the first adds `negatives` more windows that the levels
// and the previous round's SVM accept at its margin (decision value at least -1), mined on by the same miner
// (a finer pyramid than the levels': mine_scale), and trains the SVM again on all of them.
#pragma once

#include <vector>

#include "data/negative_images.hpp"
#include "data/progress.hpp"
#include "train/cov/cov_samples.hpp"
#include "train/cov/cov_stage.hpp"
#include "train/hog/final_svm.hpp"
#include "train/stage_checkpoint.hpp"

namespace cascade::train::cov {

struct FinalSvmOptions {
    int negatives = 0;  // mined per round (0: no final stage)
    int rounds = 1;
    double mine_scale = 1.05;
    std::vector<hog::BlockGridSpec> grids{hog::BlockGridSpec{16, 8}};
    hog::SvmOptions svm{0.01, 0.01};
    double min_hit_rate = 0.99;
    bool lbp_histograms = false;  // the uniform-LBP histograms of `lbp_cells` after the rectangles
    std::vector<hog::BlockGridSpec> lbp_cells{hog::BlockGridSpec{hog::kLbpCellSide, hog::kLbpCellSide}};
};

// Appends the final stage to `cascade` and its summary to `stages`; `positives` are those the cascade keeps.
// False (nothing appended) when the first round finds fewer than min_negatives negatives.
bool add_final_svm(const CovSamples& positives, const std::vector<data::NegativeImage>& negatives,
                   const FinalSvmOptions& options, const StageOptions& stage, int per_image, int min_negatives,
                   CovCascade& cascade, std::vector<StageSummary>& stages, data::Progress& progress);

}  // namespace cascade::train::cov
