// WaldBoost rejection thresholds (Sochman & Matas 2005), set during training on running sums.
//
// Wald's sequential probability ratio test rejects a window as soon as the likelihood ratio
// p(H_t | negative) / p(H_t | positive) of its running sum reaches A = 1 / alpha. As in WaldBoost, the ratio is
// estimated on the samples that reached stage t (the negatives being a bootstrapped sample of the windows
// that do), cumulatively: a threshold is allowed when
//     (live negatives below it / live negatives)  >=  (live positives below it / live positives) / alpha,
// that is, below it negatives outnumber positives by 1 / alpha at least; a threshold that rejects no positive
// is always allowed. The positives' total loss is also capped by a budget that grows linearly over the
// stages to floor(alpha * positives) at the last, so that hard positives, whose sums fall stage after stage,
// are dropped a few at a time rather than all at the first stages or never (holding the threshold down for
// the rest of the cascade). Among the allowed thresholds the largest is taken, at a live positive's score.
// Sums are double and thresholds float (as the detectors compare them), so a threshold is the largest float
// not above the score it keeps.
#pragma once

#include <vector>

namespace cascade::train {

struct RejectionInput {
    std::vector<double> positives;  // running sums of the live positives
    std::vector<double> negatives;  // running sums of the live negatives
    int positives_rejected = 0;     // positives rejected by earlier stages
    int budget = 0;                 // positives that may have been rejected after this stage
    double alpha = 0.05;            // target miss rate
};

struct Rejection {
    float threshold = 0.f;
    int positives = 0;  // live positives below the threshold
    int negatives = 0;  // live negatives below the threshold
};

// Budget after stage `stage` (0-based) of `stages`: floor(alpha * positives * (stage + 1) / stages).
int rejection_budget(double alpha, int positives, int stage, int stages);

// The SPRT rejection threshold of one stage. Requires at least one live positive.
Rejection sprt_rejection(const RejectionInput& in);

// The final decision threshold: at least `current`, raised as far as the budget allows (no ratio test: the last
// stage decides).
Rejection final_rejection(const RejectionInput& in, float current);

// The largest float not above `value`.
float float_floor(double value);

// The smallest float above `value` (strictly: a sum equal to `value` stays below it); +inf past the largest.
float float_above(double value);

}  // namespace cascade::train
