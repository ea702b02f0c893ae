// The LBP cascade's final stage (common/model.hpp LbpHistogramSvm): a linear SVM over uniform-LBP cell histograms
// (Wang, Han and Yan 2009; docs/benchmarks.md, "A linear SVM over uniform-LBP cell histograms"), trained behind a
// WaldBoost prefix on the training positives that the prefix accepts and negatives it passes, with rounds of hard
// negatives (Dalal and Triggs' bootstrapping, as train/hog/final_svm.hpp): the first round mines --final-negatives
// windows that the prefix accepts, each later round as many more that prefix and SVM so far accept at the SVM's
// margin (score >= -1), and the SVM is trained again on everything (train/hog/block_svm.hpp's liblinear SVM). The
// stage's threshold is the SVM's decision (score >= 0); cascade-detect --min-score moves it.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "common/image.hpp"
#include "common/model.hpp"
#include "data/negative_images.hpp"
#include "train/hog/block_svm.hpp"

namespace cascade::train::lbp {

struct HistogramSvmOptions {
    int cell = 16, step = 8;
    hog::SvmOptions svm{0.01, 0.01, 10.0};
    int rounds = 4;                 // mining and training rounds
    int negatives = 15000;          // mined per round
    double mine_scale_factor = 1.2;
    int mine_per_image = 16;
    std::uint64_t seed = 1;
    int threads = 0;
};

// Throws InputError naming the first option out of range.
void validate(const HistogramSvmOptions& options);

// The L1-sqrt cell histograms of the window at (x, y) of `image`, in the model's weight order (what the stage's
// score is the dot product of, less the bias): cells_x * cells_y * 59 floats.
std::vector<float> histogram_features(const GrayImage& image, int x, int y, const LbpHistogramSvm& layout);

// `cascade` (its stages the prefix) with a final histogram SVM trained as above; `log` gets a line per round.
// `positives` hold the window at (ring, ring) with `ring` pixels around it: the codes of the window's outer
// pixels read their neighbours (as mined negatives and windows of a scanned image do); ring 0 clamps them to the
// window, which a detector never sees, and the SVM would learn that as a sign of a positive.
void train_histogram_svm(LbpCascade& cascade, const std::vector<GrayImage>& positives, int ring,
                         const std::vector<data::NegativeImage>& negatives, const HistogramSvmOptions& options,
                         const std::function<void(const std::string&)>& log);

}  // namespace cascade::train::lbp
