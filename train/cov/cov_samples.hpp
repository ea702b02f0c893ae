// The covariance trainer's samples and what its weak learners read of them.
//
// A sample is a detection window with kSampleMargin (= kCovGrid) pixels around it, grey pixels: the trainer
// builds the family's planes of that crop (common/cov_features.hpp) and reads the window at (margin, margin),
// on the planes' grid. That is exactly what the detector reads of the same window inside its pyramid level:
// the features of the window's pixels need only their neighbours (the margin; beyond a level's border the
// crop repeats the border pixels, as the features' clamped differences do), the x and y features enter the
// covariances only through differences (a shift changes no covariance, exactly, in int64), and the window
// sits on the grid of the crop's planes as it sits on the level's. 72 x 136 bytes a 64x128 sample, against
// 200 KB for its corner sums, so the sums are built again whenever a stage needs them.
//
// The pool of rectangles (Tuzel, Porikli and Meer: every rectangle at least 1/10 of the window's width and
// height) is every rectangle on the kCovGrid grid inside the window whose sides are at least the window's
// tenth, rounded up to the grid.
#pragma once

#include <vector>

#include "common/geometry.hpp"
#include "common/image.hpp"
#include "common/model.hpp"
#include "data/crop_options.hpp"
#include "data/positive_samples.hpp"
#include "train/negative_miner.hpp"

namespace cascade::train::cov {

constexpr int kSampleMargin = kCovGrid;

// Positives first, then negatives.
struct CovSamples {
    Size window{64, 128};
    std::vector<GrayImage> crops;  // window + kSampleMargin on every side
    int positives = 0;

    int size() const { return static_cast<int>(crops.size()); }
    bool positive(int i) const { return i < positives; }
};

// The positive samples: of each crop (exactly the window plus `margin`, every side >= kSampleMargin;
// InputError naming the file otherwise) the window at (margin.left, margin.top) with kSampleMargin around it,
// each followed by that of its `jitter.copies` jittered copies (data/positive_samples.hpp).
CovSamples load_positive_samples(const std::vector<data::PositiveSource>& crops, Size window,
                                 const data::Margin& margin, int threads, const data::Jitter& jitter = {});

// The miner's settings for the family's samples: windows of `window` on the kCovGrid grid, with kSampleMargin.
MiningParams sample_mining(Size window, double scale_factor, int per_image, std::uint64_t seed, int threads);

// Whether `cascade` accepts each sample's window, as the detector decides.
std::vector<char> accepted(const CovCascade& cascade, const CovSamples& samples, int threads);

// Every rectangle of the pool of `window`, ordered by (height, width, y, x).
std::vector<Rect> rect_pool(Size window);

// Sample-major tables of float 36-vectors, one table per weak learner's rectangle and mapping: values[(r *
// samples + i) * kCovDims + k]. Rounded to float from the detector's doubles (cov_eval.hpp, steps 1-3), so
// that hundreds of candidate rectangles fit in memory; the stage sums that decide are computed exactly
// (stage_sums).
struct VectorTable {
    int rects = 0, samples = 0;
    std::vector<float> values;

    const float* of(int r) const { return values.data() + static_cast<std::size_t>(r) * samples * kCovDims; }
};

// The vectors of every sample under each of `maps` (their rect, mapping and mean; nothing else is read).
VectorTable sample_vectors(const CovSamples& samples, const std::vector<CovWeak>& maps, int threads);

// The normalised covariances (8x8 doubles each) of each of `rects` for the samples `which`: rect-major,
// entry (r * which.size() + k) * 64.
std::vector<double> rect_covariances(const CovSamples& samples, const std::vector<int>& which,
                                     const std::vector<Rect>& rects, int threads);

// Each sample's L1-sqrt uniform-LBP histograms (lbp_cell_features, common/lbp_uniform.hpp) of the square `cells`
// (window coordinates): sample-major, 59 values a cell, values[(i * cells.size() + c) * 59 + b].
std::vector<float> cell_histograms(const CovSamples& samples, const std::vector<Rect>& cells, int threads);

// Each sample's sum of the responses of `weaks` (in order, in double: the detector's sum), added to `sums`.
void add_responses(const CovSamples& samples, const std::vector<CovWeak>& weaks, std::vector<double>& sums,
                   int threads);

}  // namespace cascade::train::cov
