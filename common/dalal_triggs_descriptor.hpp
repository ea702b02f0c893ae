// Dalal and Triggs' block descriptor (CVPR 2005, the one OpenCV's HOGDescriptor computes), written once for host
// and device: a 16x16 block of 2x2 cells of 8x8 pixels, 9 orientation bins over [0, 180), each pixel's
// gradient magnitude weighted by a Gaussian over the block (sigma 4, OpenCV's default for 16x16 blocks) and
// voted trilinearly (bilinearly between the cell centres, linearly between the 2 nearest bin centres), then
// L2-Hys: L2-normalised (eps 0.1 per dimension, as OpenCV), clipped at 0.2, L2-normalised again. A HogWeak whose
// descriptor is kHogDescriptorDalalTriggs (model.hpp) reads its block this way instead of from the integral
// histograms; 105 of them at stride 8 are Dalal and Triggs' 64x128 window, the final linear SVM stage of
// train/hog/final_svm.hpp.
//
// Sampler contract: `s.gradient(x, y)` returns the level's GradientPair at pixel (x, y) (common/hog_features.hpp:
// the clamped centred differences every HoG feature starts from; HogSampler is the host sampler), and
// `s.gamma_gradient(x, y)` that of the gamma-corrected levels (hog_gamma: round(8 sqrt(255 I)), OpenCV's
// square-root gammaCorrection in integers), which the gamma variant (kHogDescriptorDalalTriggsGamma) reads.
//
// Exactness (as common/hog_eval.hpp): the orientation bin is hog_orientation_bin's (integer cross products); the
// position inside the bin is d0 / (d0 + d1) with d0, d1 the integer cross products with the bin's two
// boundaries (the ratio of the sines of the angles to them: within 0.6% of a bin of the angle's own position,
// no atan2); the magnitude a correctly rounded float square root of the integer gx^2 + gy^2; the Gaussian a
// product of two float constants and the spatial weights multiples of 1/16 (exact). Every later step is one IEEE
// operation rounded to nearest (exact_math.hpp), pixels in reading order and bins in a fixed order, so the CPU
// detector, the trainer and a GPU kernel compute the same bits.
#pragma once

#include <cstdint>
#include <type_traits>
#include <utility>

#include "common/exact_math.hpp"
#include "common/hd.hpp"
#include "common/hog_features.hpp"
#include "common/model.hpp"

namespace cascade {

constexpr int kDalalTriggsBlock = 16;  // side of the block; cells are half of it
constexpr float kDalalTriggsClip = 0.2f;
constexpr float kDalalTriggsEpsilon = 3.6f;  // 0.1 per dimension of the block
// The same for the gamma variant, whose levels round(8 sqrt(255 I)) (hog_gamma) are 8 sqrt(255) times OpenCV's
// sqrt(I): its epsilon weighs against the block's norm as OpenCV's does, 3.6 * 8 sqrt(255) (faint blocks stay
// faint).
constexpr float kDalalTriggsGammaEpsilon = 459.899119f;

// Boundary k (0..9) of the orientation bins, the direction 20k degrees as round(2^15 * (cos, sin)).
CASCADE_HD void dt_boundary(int k, int& c, int& s) {
    switch (k) {
        case 0: c = 32768; s = 0; return;
        case 1: c = 30792; s = 11207; return;
        case 2: c = 25102; s = 21063; return;
        case 3: c = 16384; s = 28378; return;
        case 4: c = 5690; s = 32270; return;
        case 5: c = -5690; s = 32270; return;
        case 6: c = -16384; s = 28378; return;
        case 7: c = -25102; s = 21063; return;
        case 8: c = -30792; s = 11207; return;
        default: c = -32768; s = 0; return;
    }
}

// float(exp(-(p - 8)^2 / 32)) for p = 0..15: one axis of the block's Gaussian, sigma 4, centred on pixel 8 as
// OpenCV's HOGDescriptor centres it (the block's centre is 7.5), so that its descriptor is this one's reference.
CASCADE_HD float dt_gaussian(int p) {
    switch (p < 8 ? p : 16 - p) {
        case 0: return 0.135335281f;
        case 1: return 0.216265172f;
        case 2: return 0.324652463f;
        case 3: return 0.45783335f;
        case 4: return 0.606530666f;
        case 5: return 0.754839599f;
        case 6: return 0.882496893f;
        case 7: return 0.969233215f;
        default: return 1.f;
    }
}

// The share of pixel p (0..15) of a block that goes to cell c (0 or 1) along one axis: linear in the distance
// from p's centre to the cell's centre (at 4 and 12), 1 - |p + 1/2 - (8c + 4)| / 8, and 0 beyond 8 pixels; the
// share that would go to a cell outside the block is dropped (as OpenCV does). A multiple of 1/16, exact.
CASCADE_HD float dt_cell_share(int p, int c) {
    const int d = 2 * p + 1 - (16 * c + 8), n = 16 - (d < 0 ? -d : d);
    return n <= 0 ? 0.f : static_cast<float>(n) * 0.0625f;
}

// A pixel's orientation vote: bins lo and hi (hi = lo + 1 mod 9), hi's share of the magnitude.
struct DtVote {
    int lo = 0, hi = 1;
    float hi_share = 0.f;
    float magnitude = 0.f;
};

CASCADE_HD DtVote dt_pixel_vote(int gx, int gy) {
    DtVote v;
    if (gx == 0 && gy == 0) return v;
    if (gy < 0 || (gy == 0 && gx < 0)) {
        gx = -gx;
        gy = -gy;
    }
    const int b = hog_orientation_bin(gx, gy);
    int c0, s0, c1, s1;
    dt_boundary(b, c0, s0);
    dt_boundary(b + 1, c1, s1);
    const int d0 = c0 * gy - s0 * gx, d1 = s1 * gx - c1 * gy;  // >= 0 and > 0 inside bin b
    // Position in the bin, 0 at boundary b, 1 at boundary b + 1; the bin centres are at 1/2.
    const float f = exact::div(static_cast<float>(d0), static_cast<float>(d0 + d1));
    if (f >= 0.5f) {
        v.lo = b;
        v.hi_share = exact::add(f, -0.5f);
    } else {
        v.lo = b == 0 ? kHogBins - 1 : b - 1;
        v.hi_share = exact::add(f, 0.5f);
    }
    v.hi = v.lo + 1 == kHogBins ? 0 : v.lo + 1;
    v.magnitude = exact::sqrt(static_cast<float>(gx * gx + gy * gy));
    return v;
}

// A sampler with dt_vote(x, y, gamma) gives each pixel's vote itself (the CPU scan's block cache keeps every
// level's votes, common/hog_block_cache.hpp: dt_pixel_vote of the same gradient, so the same bits); the others'
// votes are computed from their gradients.
template <class Sampler, class = void>
struct HasDtVotes : std::false_type {};
template <class Sampler>
struct HasDtVotes<Sampler, std::void_t<decltype(std::declval<const Sampler&>().dt_vote(0, 0, false))>> : std::true_type {};

template <class Sampler>
CASCADE_HD DtVote dt_vote_at(const Sampler& s, int x, int y, bool gamma) {
    if constexpr (HasDtVotes<Sampler>::value) {
        return s.dt_vote(x, y, gamma);
    } else {
        const GradientPair g = gamma ? s.gamma_gradient(x, y) : s.gradient(x, y);
        return dt_pixel_vote(g.gx, g.gy);
    }
}

// The 36 unnormalised cell histograms of the 16x16 block at `block`'s corner in the window at (wx, wy),
// element 9 * cell + bin, cells in reading order; from the gamma-corrected gradients if `gamma`.
template <class Sampler>
CASCADE_HD void dt_block_histogram(const Sampler& s, int wx, int wy, Rect block, bool gamma, float h[kHogBlockDims]) {
    for (int i = 0; i < kHogBlockDims; ++i) h[i] = 0.f;
    for (int py = 0; py < kDalalTriggsBlock; ++py) {
        const float gy = dt_gaussian(py);
        for (int px = 0; px < kDalalTriggsBlock; ++px) {
            const int x = wx + block.x + px, y = wy + block.y + py;
            const DtVote vote = dt_vote_at(s, x, y, gamma);
            if (vote.magnitude == 0.f) continue;
            const float m = exact::mul(vote.magnitude, exact::mul(gy, dt_gaussian(px)));
            const float lo_share = exact::add(1.f, -vote.hi_share);
            for (int cell = 0; cell < 4; ++cell) {
                const float mc = exact::mul(m, exact::mul(dt_cell_share(py, cell / 2), dt_cell_share(px, cell % 2)));
                if (mc == 0.f) continue;
                float* cell_bins = h + cell * kHogBins;
                cell_bins[vote.lo] = exact::add(cell_bins[vote.lo], exact::mul(mc, lo_share));
                cell_bins[vote.hi] = exact::add(cell_bins[vote.hi], exact::mul(mc, vote.hi_share));
            }
        }
    }
}

// v = h / (|h| + epsilon), clipped at 0.2, then v / (|v| + 1e-3) (OpenCV's normalizeBlockHistogram).
CASCADE_HD void dt_l2hys(float v[kHogBlockDims], float epsilon) {
    float sum = 0.f;
    for (int i = 0; i < kHogBlockDims; ++i) sum = exact::add(sum, exact::mul(v[i], v[i]));
    const float scale = exact::div(1.f, exact::add(exact::sqrt(sum), epsilon));
    float clipped_sum = 0.f;
    for (int i = 0; i < kHogBlockDims; ++i) {
        const float x = exact::mul(v[i], scale);
        v[i] = x < kDalalTriggsClip ? x : kDalalTriggsClip;
        clipped_sum = exact::add(clipped_sum, exact::mul(v[i], v[i]));
    }
    const float rescale = exact::div(1.f, exact::add(exact::sqrt(clipped_sum), 1e-3f));
    for (int i = 0; i < kHogBlockDims; ++i) v[i] = exact::mul(v[i], rescale);
}

// The normalised descriptor of the 16x16 block at `block`'s corner in the window at (wx, wy), from the
// gamma-corrected gradients if `gamma`.
template <class Sampler>
CASCADE_HD void dalal_triggs_block(const Sampler& s, int wx, int wy, Rect block, bool gamma, float v[kHogBlockDims]) {
    dt_block_histogram(s, wx, wy, block, gamma, v);
    dt_l2hys(v, gamma ? kDalalTriggsGammaEpsilon : kDalalTriggsEpsilon);
}

}  // namespace cascade
