// One level of the covariance cascade: boosting over weak learners that each read one rectangle's covariance
// as a 36-vector (cov_samples.hpp), with one of two weak learners:
//
//   logitboost  Tuzel, Porikli and Meer (PAMI 2008, Algorithm 1): each round, LogitBoost's working responses
//               and weights (logitboost.hpp); for each candidate rectangle the weighted least-squares line
//               of the working response on the rectangle's tangent vectors; the one with the least weighted
//               residual is kept, responding half its regression (clipped to +-kMaxWorkingResponse / 2: the
//               line is fitted where the working responses are, and clipped there).
//   block-svm   the HoG trainer's weak learner (train/hog: block_svm.hpp, weak_response.hpp) on the 36-vector
//               instead of a HoG block: a linear SVM trained on the AdaBoost weights (by resampling), real
//               AdaBoost's response bins on its projection; the candidate with the least Z is kept.
//
// The vectors are those of the rectangle's normalised covariance mapped at the identity (log-Euclidean) or,
// with the tangent mapping, at the Karcher mean of the rectangle's covariances over (up to mean_samples of)
// the positives. Tuzel et al. take the weighted mean of every round; here each stage draws rects_per_stage
// rectangles of the pool, computes each one's mean once for the stage and the vectors of every sample under
// it, and each round chooses among rects_per_round of them: a round then costs regressions only (the matrix
// logarithms, some 10 us each, are the bulk of the work: 6000 samples x 300 rectangles a stage). Tuzel et al.
// took the mean over the positives too, the negatives scattering over the manifold.
//
// After each round the stage threshold keeps ceil(min_hit_rate * P) of the positives and the stage ends when
// it passes at most max_false_alarm of the negatives (Tuzel et al.: 0.998 and 0.35), or after max_weaks
// rounds. Rounds decide on sums of the float vectors' responses; the stage's final threshold and rates are
// set on the detector's exact sums (cov_eval.hpp), so that the stage keeps in the detector what it reports.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "common/model.hpp"
#include "train/cov/cov_samples.hpp"
#include "train/hog/block_svm.hpp"

namespace cascade::train::cov {

enum class WeakKind { logitboost, block_svm };

struct StageOptions {
    WeakKind kind = WeakKind::logitboost;
    std::int32_t mapping = kCovTangent;
    int bins = 8;  // block-svm: response bins (2..kHogMaxBins)
    double min_hit_rate = 0.998;
    double max_false_alarm = 0.35;
    int rects_per_stage = 300;
    int rects_per_round = 200;
    int mean_samples = 256;
    int max_weaks = 60;
    double ridge = 1e-4;  // logitboost: of the regression, relative to the total weight
    hog::SvmOptions svm;
    double resample_factor = 1.0;  // block-svm: SVM instances drawn by weight, per sample
    std::uint64_t seed = 1;
    int threads = 0;
};

struct WeakReport {
    int index = 0;
    Rect rect;
    double score = 0.0;  // weighted residual (logitboost) or Z (block-svm)
    double hit_rate = 0.0, false_alarm = 0.0;
};

struct StageResult {
    std::vector<CovWeak> weaks;
    float threshold = 0.f;
    double hit_rate = 0.0, false_alarm = 0.0;
};

// `rects` with options.mapping; with the tangent mapping each one's mean_isqrt from the Karcher mean of its
// covariances over up to mean_samples of the positives, drawn by (seed, key) (a stage's key: its index).
std::vector<CovWeak> rect_maps(const CovSamples& samples, const std::vector<Rect>& rects, std::uint64_t key,
                               const StageOptions& options);

// Trains stage `stage_index` (which seeds its choices) on `samples` (positives first).
StageResult train_stage(const CovSamples& samples, const std::vector<Rect>& pool, int stage_index,
                        const StageOptions& options, const std::function<void(const WeakReport&)>& on_weak);

}  // namespace cascade::train::cov
