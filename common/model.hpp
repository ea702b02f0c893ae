// The one in-memory model representation of the toolkit: boosted cascades over LBP, HoG-block, Haar or region
// covariance features.
//
// A cascade is a list of weak learners cut into stages. Each stage ends with a rejection threshold on a
// running sum of weak-learner responses. Two sum policies cover every model kind:
//   - per_stage: the sum restarts at zero in each stage (OpenCV's stage cascades, Zhu's HoG cascades);
//   - running:   the sum runs over the whole cascade (WaldBoost: every stage is one weak learner whose
//                threshold is its SPRT rejection threshold; the last threshold is the final decision).
//                A stage may also carry an acceptance threshold: a window whose running sum reaches it is
//                accepted at once, its sum so far the score (WaldBoost's acceptance test; +inf: none).
// A window is accepted when it passes every stage (or a stage accepts it); its score is the last sum.
//
// Host containers live here; view_of (common/cascade_eval.hpp, common/hog_eval.hpp) turns them into the pointer
// views that the shared host/device evaluation code reads.
#pragma once

#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "common/geometry.hpp"
#include "common/hd.hpp"

namespace cascade {

// Version of the project's XML format (docs/model-format.md). Bumped on any incompatible change.
// 2: stages may carry an acceptance threshold; 3: HoG weak learners may have real-valued responses;
// 4: kind haar (Haar trees). 5: HoG descriptor="dalal-triggs". 6: kind cov (region covariance).
// 7: HoG descriptor="dalal-triggs-gamma". 8: HoG descriptor="lbp-histogram". 9: an LBP cascade's <histogram-svm>
// final stage. 10: cov descriptor="lbp-histogram".
constexpr int kModelFormatVersion = 10;

enum class SumPolicy : std::uint8_t { per_stage, running };

struct Stage {
    int first = 0;          // index of the stage's first weak learner
    int count = 0;          // number of weak learners in the stage
    float threshold = 0.f;  // reject when the sum is below this
    // Accept when the sum is at least this (running policy only; above `threshold`). +inf: no early acceptance.
    float accept = std::numeric_limits<float>::infinity();
};

// Multi-block LBP: a 3x3 grid of cells, each width x height pixels, with its top-left corner at (x, y) in
// window coordinates. The code has one bit per outer cell, set when that cell's sum >= the centre's.
struct LbpFeature {
    std::int16_t x = 0, y = 0, width = 0, height = 0;
};

// Weak learner over an LBP code: a 256-entry response table, stored in LbpCascade::responses at
// table * 256. OpenCV's categorical stumps (256-bit subset, two leaves) import exactly as such tables.
struct LbpWeak {
    LbpFeature feature;
    int table = 0;
};

constexpr int kLbpCodes = 256;

// An LBP cascade's optional final stage (format version 9): a linear SVM over uniform-LBP cell histograms (Wang,
// Han and Yan 2009; common/lbp_uniform.hpp). Cells of cell x cell pixels with top-left corners at (i * step,
// j * step) of the window, i < cells_x, j < cells_y; each cell's 59 counts normalised as sqrt(n / cell^2)
// (L1-sqrt). A window that passes every stage scores bias + weights . histograms (common/lbp_histogram_eval.hpp)
// and is accepted when that is at least `threshold`; its score is then the SVM's.
struct LbpHistogramSvm {
    int cell = 16, step = 8;
    int cells_x = 0, cells_y = 0;
    float bias = 0.f, threshold = 0.f;
    std::vector<float> weights;  // cells_x * cells_y * 59: cell-major (row of cells by row, x fastest), bins ascending
};

struct LbpCascade {
    Size window;
    SumPolicy policy = SumPolicy::per_stage;
    std::vector<Stage> stages;
    std::vector<LbpWeak> weaks;
    std::vector<float> responses;  // weaks.size() * 256 values
    std::optional<LbpHistogramSvm> final_svm;
};

// A HoG block: a rectangle in the window split into 2x2 cells; its descriptor is 4 cells x 9 orientation
// bins = 36 values, L2-normalised.
constexpr int kHogBins = 9;
constexpr int kHogBlockDims = 4 * kHogBins;
constexpr int kHogMaxBins = 8;  // most response bins of one weak learner

// Weak learner over one HoG block: the projection p = weights . descriptor + bias, and a response that is a
// step function of p plus, optionally, a linear term: responses[k] + slope * p, where k counts the cuts that
// p reaches (p >= cuts[j]; cuts ascending). Three uses:
//   - discrete AdaBoost (Zhu et al., Bilgic): one cut at 0, responses {-vote, +vote}, slope 0 (set_vote);
//   - real AdaBoost (Schapire and Singer's domain partitioning): up to kHogMaxBins bins of p, slope 0;
//   - one block's share of a linear SVM over many blocks: no cut, responses {0}, slope 1, so that a stage of
//     such learners sums to the SVM's decision value (less its bias, which the stage threshold holds).
// Entries past num_cuts (and past num_cuts + 1 responses) are 0. `descriptor` says how the block is read:
// kHogDescriptorIntegral, from the integral histograms (common/hog_eval.hpp, any block of even sides), or
// kHogDescriptorDalalTriggs, Dalal and Triggs' Gaussian-weighted, trilinear, L2-Hys block from the gradients
// (common/dalal_triggs_descriptor.hpp, 16x16 blocks only), or kHogDescriptorDalalTriggsGamma, the same from the
// gradients of the square-root gamma-corrected image (as OpenCV's HOGDescriptor people detector), or
// kHogDescriptorLbpHistogram, a square cell's uniform-LBP histogram (common/lbp_uniform.hpp; HOG-LBP, Wang, Han and
// Yan 2009): `block` is the cell, the projection weights . sqrt(counts / area) over bins first_bin .. first_bin + 35
// (those below 59: a cell's 59 bins take two learners, 0-35 and 36-58, the second's last 13 weights 0), plus bias.
constexpr std::int32_t kHogDescriptorIntegral = 0;
constexpr std::int32_t kHogDescriptorDalalTriggs = 1;
constexpr std::int32_t kHogDescriptorDalalTriggsGamma = 2;
constexpr std::int32_t kHogDescriptorLbpHistogram = 3;

// Read by the window evaluator on the GPU too (a host-only function called there gives no error, only a warning
// and a wrong answer).
CASCADE_HD constexpr bool is_dalal_triggs(std::int32_t descriptor) {
    return descriptor == kHogDescriptorDalalTriggs || descriptor == kHogDescriptorDalalTriggsGamma;
}

struct HogWeak {
    Rect block;
    float weights[kHogBlockDims] = {};
    float bias = 0.f;
    int num_cuts = 1;
    float cuts[kHogMaxBins - 1] = {};
    float responses[kHogMaxBins] = {};
    float slope = 0.f;
    std::int32_t descriptor = kHogDescriptorIntegral;
    std::int32_t first_bin = 0;  // kHogDescriptorLbpHistogram only (0 otherwise): the LBP bin of weights[0]
};

// Makes `weak` a discrete learner: +vote when its projection is >= 0, else -vote.
inline void set_vote(HogWeak& weak, float vote) {
    weak.num_cuts = 1;
    for (float& c : weak.cuts) c = 0.f;
    for (float& r : weak.responses) r = 0.f;
    weak.responses[0] = -vote;
    weak.responses[1] = vote;
    weak.slope = 0.f;
}

// True when `weak` holds exactly the bits set_vote(weak, weak.responses[1]) gives (the form the XML writes
// as vote="..."), given that its unused entries are 0.
inline bool is_vote(const HogWeak& weak) {
    const auto bits = [](float f) {
        std::uint32_t b = 0;
        std::memcpy(&b, &f, sizeof b);
        return b;
    };
    return weak.num_cuts == 1 && bits(weak.cuts[0]) == 0u && bits(weak.responses[0]) == bits(-weak.responses[1]) &&
           bits(weak.slope) == 0u;
}

struct HogCascade {
    Size window;
    SumPolicy policy = SumPolicy::per_stage;
    std::vector<Stage> stages;
    std::vector<HogWeak> weaks;
};

// True when some learner of `cascade` reads LBP bins: a level's HoG planes then include the bin plane.
inline bool uses_lbp_bins(const HogCascade& cascade) {
    for (const HogWeak& w : cascade.weaks)
        if (w.descriptor == kHogDescriptorLbpHistogram) return true;
    return false;
}

// Haar-like feature (OpenCV's Haar cascades): up to three weighted rectangles in window coordinates, upright
// or tilted by 45 degrees (a tilted rectangle (x, y, w, h) has its top corner at (x, y) and its sides running
// w pixels down-right and h pixels down-left). Its value is sum_k weight_k * (pixel sum of rect_k), times the
// window's variance normalisation factor (haar_eval.hpp); an unused rectangle is all zero, weight 0.
constexpr int kHaarRects = 3;

struct HaarRect {
    std::int16_t x = 0, y = 0, width = 0, height = 0;
    float weight = 0.f;
};

struct HaarFeature {
    HaarRect rects[kHaarRects];
    std::int32_t tilted = 0;  // 0 or 1 (an int: packed records have no padding bytes)
};

// One node of a Haar tree: go `left` when the feature's normalised value is below `threshold`, else `right`.
// A child > 0 is the index of a node of the same tree (after this one); a child <= 0 is leaf -child.
struct HaarNode {
    HaarFeature feature;
    float threshold = 0.f;
    std::int32_t left = 0, right = 0;
};

// A weak learner of a Haar cascade: a tree of `node_count` nodes (1: a stump) at HaarCascade::nodes[first_node]
// and its node_count + 1 leaves at HaarCascade::leaves[first_leaf]; its response is the leaf it ends at.
struct HaarTree {
    int first_node = 0;
    int node_count = 0;
    int first_leaf = 0;
};

struct HaarCascade {
    Size window;
    SumPolicy policy = SumPolicy::per_stage;
    std::vector<Stage> stages;
    std::vector<HaarTree> weaks;
    std::vector<HaarNode> nodes;
    std::vector<float> leaves;
};

// Region covariance (Tuzel, Porikli and Meer 2008; common/cov_features.hpp, common/cov_eval.hpp): a weak learner
// reads the 8x8 covariance of the features [x, y, |Ix|, |Iy|, magnitude, |Ixx|, |Iyy|, angle] over a rectangle of
// the window, normalised by the whole window's feature variances, maps it to a 36-vector (the matrix logarithm,
// at the identity or in the tangent space at a mean) and responds to its projection as a HoG weak learner does.
constexpr int kCovFeatures = 8;
constexpr int kCovDims = kCovFeatures * (kCovFeatures + 1) / 2;  // 36
// Rectangles, the window and scan positions lie on a grid of kCovGrid pixels: the integrals are kept at the grid's
// corners only (16x less memory than at every pixel).
constexpr int kCovGrid = 4;
// How a weak learner maps its (normalised) covariance C to the 36-vector v:
//   kCovLogEuclidean: v = vec(log C);  kCovTangent: v = vec(log(M C M)) with M = mean_isqrt = mu^-1/2, the
//   tangent space at the mean mu of its training matrices. vec: the upper triangle row by row, off-diagonal
//   entries times sqrt(2) (so that |v| is the Frobenius norm of the logarithm).
constexpr std::int32_t kCovLogEuclidean = 0;
constexpr std::int32_t kCovTangent = 1;
// What a covariance cascade's weak learner reads: the covariance of its rectangle, or (kCovDescriptorLbpHistogram)
// the uniform-LBP histogram of its square cell, a HoG LBP-histogram learner's reading (hog_eval.hpp: weights over
// bins first_bin .. first_bin + 35 at most; mapping log-Euclidean, mean +0) with the response below.
static_assert(kCovDims == kHogBlockDims, "an LBP-histogram learner holds as many weights in either family");
constexpr std::int32_t kCovDescriptorCovariance = 0;
constexpr std::int32_t kCovDescriptorLbpHistogram = 1;

// Weak learner over one rectangle: p = weights . v + bias, and the response of HogWeak (responses[cuts reached]
// + slope * p: a real-AdaBoost bin table or, with no cut, responses {0} and slope 1, LogitBoost's regression),
// then clipped to [-limit, limit] (+inf: not clipped). mean_isqrt (row-major 8x8, symmetric) is used by
// kCovTangent only; kCovLogEuclidean learners hold +0 there. Entries past num_cuts are +0.
struct CovWeak {
    Rect rect;  // in window coordinates, on the kCovGrid grid, at least kCovGrid x kCovGrid
    std::int32_t mapping = kCovLogEuclidean;
    float weights[kCovDims] = {};
    float bias = 0.f;
    std::int32_t num_cuts = 0;
    float cuts[kHogMaxBins - 1] = {};
    float responses[kHogMaxBins] = {};
    float slope = 1.f;
    float limit = std::numeric_limits<float>::infinity();
    float mean_isqrt[kCovFeatures * kCovFeatures] = {};
    std::int32_t descriptor = kCovDescriptorCovariance;
    std::int32_t first_bin = 0;  // kCovDescriptorLbpHistogram only (0 otherwise): the LBP bin of weights[0]
};

struct CovCascade {
    Size window;  // sides multiples of kCovGrid, at most 65536 pixels (exact int64 sums, cov_features.hpp)
    SumPolicy policy = SumPolicy::per_stage;
    std::vector<Stage> stages;
    std::vector<CovWeak> weaks;
};

// True when some learner of `weaks` (of `cascade`) reads LBP bins: a level's covariance planes then include the
// bin plane.
inline bool uses_lbp_bins(const std::vector<CovWeak>& weaks) {
    for (const CovWeak& w : weaks)
        if (w.descriptor == kCovDescriptorLbpHistogram) return true;
    return false;
}
inline bool uses_lbp_bins(const CovCascade& cascade) { return uses_lbp_bins(cascade.weaks); }

// A loaded model: one of the kinds above, with where it came from (for messages).
struct Model {
    std::variant<LbpCascade, HogCascade, HaarCascade, CovCascade> cascade;
    std::string source;  // file name or "embedded:<name>"
};

// Structural checks shared by every loader: stages cover the weak learners in order, without gaps, features
// lie inside the window, tables exist. Throws ModelError naming `source` and the first problem.
void validate(const LbpCascade& cascade, const std::string& source);
void validate(const HogCascade& cascade, const std::string& source);
void validate(const HaarCascade& cascade, const std::string& source);
void validate(const CovCascade& cascade, const std::string& source);

}  // namespace cascade
