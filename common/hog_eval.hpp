// HoG-block evaluation, written once for host and device: the 36-D block descriptor read from integral
// histograms, the weak learner's projection and response, and the cascade view and window functor for
// run_stages (common/cascade_eval.hpp).
//
// Sampler contract: `s.at(x, y, bin)` returns the uint32 integral-histogram value of `bin` at corner (x, y)
// (HogIntegralView in common/hog_features.hpp is the host sampler).
//
// Descriptor. A block (x, y, w, h) of the window at (wx, wy) is 2x2 cells of (w/2) x (h/2) pixels, read from
// its 3x3 corner points: 81 reads. Element 9 * cell + bin, cells in reading order (top-left, top-right,
// bottom-left, bottom-right). The cells' integer sums c are L2-normalised: v = c / (|c| + eps), with
// eps = the block's area in pixels, in fixed-point magnitude units (kHogMagnitudeScale per grey level): the
// norm of a block whose pixels average 1/16 grey level of gradient. It keeps flat, noise-only blocks near
// zero, and is negligible beside the norm of any block with visible structure (|c| >= area * mean / 6).
//
// Exactness. The cell sums are exact integers; |c|^2 is an exact uint64. Every float step after that is one
// IEEE operation rounded to nearest, in a fixed order (convert, sqrt, add eps, reciprocal, 36 products, then
// the dot product accumulated from element 0 to 35 and the bias added last; the response's bin is found by
// comparisons, and a linear term is one product and one sum). On the device each step is an
// explicit _rn intrinsic, which nvcc never contracts into an FMA; on the host each is a plain SSE operation
// (the project builds without -mfma; a host build with FMA enabled would need -ffp-contract=off). So the CPU
// detector, the trainer and the GPU kernels take the same decision for every block of every window.
#pragma once

#include <cstdint>

#include "common/cascade_eval.hpp"
#include <type_traits>
#include <utility>

#include "common/dalal_triggs_descriptor.hpp"
#include "common/hd.hpp"
#include "common/exact_math.hpp"
#include "common/hog_features.hpp"
#include "common/lbp_uniform.hpp"
#include "common/model.hpp"

namespace cascade {

// The 36 integer cell sums of `block` in the window whose top-left corner is (wx, wy).
template <class Sampler>
CASCADE_HD void hog_block_cells(const Sampler& s, int wx, int wy, Rect block, std::uint32_t cells[kHogBlockDims]) {
    const int x0 = wx + block.x, x1 = x0 + block.width / 2, x2 = x0 + block.width;
    const int y0 = wy + block.y, y1 = y0 + block.height / 2, y2 = y0 + block.height;
    for (int b = 0; b < kHogBins; ++b) {
        const std::uint32_t p00 = s.at(x0, y0, b), p01 = s.at(x1, y0, b), p02 = s.at(x2, y0, b);
        const std::uint32_t p10 = s.at(x0, y1, b), p11 = s.at(x1, y1, b), p12 = s.at(x2, y1, b);
        const std::uint32_t p20 = s.at(x0, y2, b), p21 = s.at(x1, y2, b), p22 = s.at(x2, y2, b);
        cells[0 * kHogBins + b] = p11 - p01 - p10 + p00;
        cells[1 * kHogBins + b] = p12 - p02 - p11 + p01;
        cells[2 * kHogBins + b] = p21 - p11 - p20 + p10;
        cells[3 * kHogBins + b] = p22 - p12 - p21 + p11;
    }
}

// v = c / (|c| + area) (see the header comment for the exact sequence of operations).
CASCADE_HD void hog_normalise(const std::uint32_t cells[kHogBlockDims], int area, float v[kHogBlockDims]) {
    std::uint64_t norm2 = 0;
    for (int i = 0; i < kHogBlockDims; ++i) norm2 += std::uint64_t{cells[i]} * cells[i];
    const float denominator = exact::add(exact::sqrt(static_cast<float>(norm2)), static_cast<float>(area));
    const float inverse = exact::div(1.f, denominator);
    for (int i = 0; i < kHogBlockDims; ++i) v[i] = exact::mul(static_cast<float>(cells[i]), inverse);
}

// The normalised descriptor of `block` in the window at (wx, wy).
template <class Sampler>
CASCADE_HD void hog_block_descriptor(const Sampler& s, int wx, int wy, Rect block, float v[kHogBlockDims]) {
    std::uint32_t cells[kHogBlockDims];
    hog_block_cells(s, wx, wy, block, cells);
    hog_normalise(cells, block.width * block.height, v);
}

// The weak learner's projection of a descriptor: weights . v + bias.
CASCADE_HD float hog_projection(const HogWeak& weak, const float v[kHogBlockDims]) {
    float dot = 0.f;
    for (int i = 0; i < kHogBlockDims; ++i) dot = exact::add(dot, exact::mul(weak.weights[i], v[i]));
    return exact::add(dot, weak.bias);
}

// A weak learner's response to projection p: responses[number of cuts <= p], plus slope * p, in T (float for
// HoG, double for covariance learners, cov_eval.hpp). `Weak`: num_cuts, cuts, responses and slope as HogWeak's.
template <class Weak, class T>
CASCADE_HD T step_response(const Weak& weak, T p) {
    int bin = 0;
    for (int j = 0; j < weak.num_cuts; ++j) bin += p >= weak.cuts[j] ? 1 : 0;
    const T step = weak.responses[bin];
    return weak.slope == 0.f ? step : exact::add(step, exact::mul(static_cast<T>(weak.slope), p));
}

CASCADE_HD float hog_response(const HogWeak& weak, float p) { return step_response(weak, p); }

struct HogCascadeView {
    Size window;
    SumPolicy policy = SumPolicy::per_stage;
    int num_stages = 0;
    const Stage* stages = nullptr;
    const HogWeak* weaks = nullptr;
};

inline HogCascadeView view_of(const HogCascade& c) {
    return {c.window, c.policy, static_cast<int>(c.stages.size()), c.stages.data(), c.weaks.data()};
}

template <class Sampler, class = void>
struct HasLbpBins : std::false_type {};
template <class Sampler>
struct HasLbpBins<Sampler, std::void_t<decltype(std::declval<const Sampler&>().lbp_bin(0, 0))>> : std::true_type {};

template <class Sampler, class = void>
struct HasGradients : std::false_type {};
template <class Sampler>
struct HasGradients<Sampler, std::void_t<decltype(std::declval<const Sampler&>().gradient(0, 0))>> : std::true_type {};

// A sampler with a block cache (the CPU scan's HogCachedSampler, common/hog_block_cache.hpp) gives each Dalal-Triggs
// descriptor and LBP cell's counts by the block's corner in the level, computed once per level by the functions
// the other samplers' windows call (so with the same bits).
template <class Sampler, class = void>
struct HasBlockCache : std::false_type {};
template <class Sampler>
struct HasBlockCache<Sampler, std::void_t<decltype(std::declval<const Sampler&>().dalal_triggs_block_at(
                                  0, 0, false, static_cast<float*>(nullptr)))>> : std::true_type {};

// The bins an LBP-histogram learner whose weights[0] is bin first_bin reads (model.hpp): weights[0 .. n).
CASCADE_HD constexpr int lbp_learner_bins(int first_bin) {
    return kLbpUniformBins - first_bin < kHogBlockDims ? kLbpUniformBins - first_bin : kHogBlockDims;
}

// An LBP-histogram learner's dot product for the window at (wx, wy): `weights` . sqrt(counts / area) over the
// bins from first_bin on of the square `cell` (window coordinates), in lbp_histogram_dot's fixed order.
template <class Sampler>
CASCADE_HD float lbp_cell_dot(const Sampler& s, int wx, int wy, Rect cell, const float* weights, int first_bin) {
    int counts[kLbpUniformBins];
    const int side = cell.width, x = wx + cell.x, y = wy + cell.y;
    if constexpr (HasBlockCache<Sampler>::value)
        s.lbp_cell_counts_at(x, y, side, counts);
    else
        lbp_cell_counts(s, x, y, side, counts);
    return lbp_histogram_dot(counts, side * side, weights, first_bin, lbp_learner_bins(first_bin));
}

// A HoG LBP-histogram learner's projection: its dot product plus its bias.
template <class Sampler>
CASCADE_HD float lbp_learner_projection(const Sampler& s, int wx, int wy, const HogWeak& weak) {
    return exact::add(lbp_cell_dot(s, wx, wy, weak.block, weak.weights, weak.first_bin), weak.bias);
}

// Response of weak learner i of a HoG cascade for the window at (x, y). A sampler without gradients reads every
// block from the integrals; the GPU uses one only for models without Dalal-Triggs learners (hog_gpu_detector.cu).
// Likewise a sampler without LBP bins serves only models without LBP-histogram learners.
template <class Sampler>
struct HogWindow {
    const HogCascadeView& cascade;
    const Sampler& sampler;
    int x, y;

    CASCADE_HD float operator()(int i) const {
        const HogWeak& weak = cascade.weaks[i];
        if constexpr (HasLbpBins<Sampler>::value) {
            if (weak.descriptor == kHogDescriptorLbpHistogram)
                return hog_response(weak, lbp_learner_projection(sampler, x, y, weak));
        }
        float v[kHogBlockDims];
        if constexpr (HasGradients<Sampler>::value) {
            if (is_dalal_triggs(weak.descriptor)) {
                const bool gamma = weak.descriptor == kHogDescriptorDalalTriggsGamma;
                if constexpr (HasBlockCache<Sampler>::value)
                    sampler.dalal_triggs_block_at(x + weak.block.x, y + weak.block.y, gamma, v);
                else
                    dalal_triggs_block(sampler, x, y, weak.block, gamma, v);
                return hog_response(weak, hog_projection(weak, v));
            }
        }
        hog_block_descriptor(sampler, x, y, weak.block, v);
        return hog_response(weak, hog_projection(weak, v));
    }
};

}  // namespace cascade
