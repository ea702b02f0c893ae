// The LBP cascade's final histogram-SVM stage (model.hpp LbpHistogramSvm), written once for host and device over
// a bin sampler (common/lbp_uniform.hpp: `s.lbp_bin(x, y)`).
#pragma once

#include "common/exact_math.hpp"
#include "common/hd.hpp"
#include "common/lbp_uniform.hpp"
#include "common/model.hpp"

namespace cascade {

// The POD form of LbpHistogramSvm that host and device code read; weights == nullptr: the cascade has none.
struct LbpHistogramSvmView {
    int cell = 0, step = 0, cells_x = 0, cells_y = 0;
    float bias = 0.f, threshold = 0.f;
    const float* weights = nullptr;
};

inline LbpHistogramSvmView view_of(const std::optional<LbpHistogramSvm>& svm) {
    if (!svm) return {};
    return {svm->cell, svm->step, svm->cells_x, svm->cells_y, svm->bias, svm->threshold, svm->weights.data()};
}

// The SVM's score of the window whose top-left corner is (wx, wy): bias, then each cell's lbp_histogram_dot
// added in float, cells row by row (x fastest), each rounded once (exact::add), so the GPU gives the CPU's bits.
template <class Sampler>
CASCADE_HD float lbp_histogram_svm_score(const LbpHistogramSvmView& svm, const Sampler& s, int wx, int wy) {
    float score = svm.bias;
    int counts[kLbpUniformBins];
    for (int j = 0; j < svm.cells_y; ++j)
        for (int i = 0; i < svm.cells_x; ++i) {
            lbp_cell_counts(s, wx + i * svm.step, wy + j * svm.step, svm.cell, counts);
            const float* w = svm.weights + (j * svm.cells_x + i) * kLbpUniformBins;
            score = exact::add(score, lbp_histogram_dot(counts, svm.cell * svm.cell, w, 0, kLbpUniformBins));
        }
    return score;
}

}  // namespace cascade
