// One weak-learner candidate: a linear SVM on one block's 36-D descriptor, trained with the AdaBoost sample
// weights.
//
// Library: liblinear (Debian's liblinear 2.3) through its C API. Neither Debian's liblinear nor its libsvm
// (3.24) accepts per-instance weights (that is the separate "-W" fork, liblinear-weights, which Debian does
// not package); both accept only per-class weights. So the weights enter through integer multiplicities:
// the weighted objective sum_i w_i loss_i is approximated by systematic resampling, instance i entering the
// problem m_i times with m_i ~ w_i * M (resample_multiplicities), duplicates sharing one feature array. This
// is boosting by resampling (Freund and Schapire), deterministic here (a fixed offset, no random draw).
// The solver is L2R_L2LOSS_SVC (primal squared-hinge SVM, trust-region Newton): unlike liblinear's dual
// solvers it draws no rand(), so it is deterministic and safe to run on many threads at once. The bias is a
// constant feature (liblinear's -B, 1 unless SvmOptions says otherwise), regularised with the weights.
#pragma once

#include <vector>

#include "common/model.hpp"

namespace cascade::train::hog {

struct SvmOptions {
    double c = 1.0;        // liblinear's C
    double epsilon = 0.01;  // liblinear's stopping tolerance for L2R_L2LOSS_SVC
    // The value of the constant feature whose weight times it is the bias (liblinear's -B): the bias is
    // regularised like a weight of that feature, so a larger value regularises it less.
    double bias_feature = 1.0;
};

// m_i for weights w (sum > 0) and M draws: floor(M W_i + 1/2) - floor(M W_(i-1) + 1/2) with W the cumulative
// normalised weights. Sums to M.
std::vector<int> resample_multiplicities(const std::vector<double>& weights, int draws);

// A linear SVM on x (n x dims floats, sample-major), labels (+1 / -1) and multiplicities: dims weights then
// the bias, oriented so that weights . x + bias is positive on the positive side. Needs at least one instance
// of each label among those with m_i > 0; returns zero weights and bias -1 otherwise. Silences liblinear's
// progress output (process-wide).
std::vector<float> train_linear_svm(const std::vector<float>& x, int dims, const std::vector<int>& labels,
                                    const std::vector<int>& multiplicities, const SvmOptions& options);

// train_linear_svm on one block's descriptors (n x kHogBlockDims floats): the SVM as a HogWeak on `block`
// (weights and bias; its response is left to weak_response.hpp).
HogWeak train_block_svm(const Rect& block, const std::vector<float>& descriptors, const std::vector<int>& labels,
                        const std::vector<int>& multiplicities, const SvmOptions& options);

}  // namespace cascade::train::hog
