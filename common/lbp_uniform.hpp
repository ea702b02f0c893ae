// Uniform-LBP cell histograms (Ojala, Pietikainen and Maenpaa 2002; as the descriptor of Wang, Han and Yan 2009),
// written once for host and device: each pixel's LBP_{8,1} code mapped to one of 59 uniform bins, a plane of
// those bins per pyramid level, the counts of a square cell of it and a linear SVM's dot product with the cell's
// L1-sqrt normalised histogram. Used by the LBP cascade's histogram-SVM final stage and by HoG-LBP.
//
// Bin sampler contract: `s.lbp_bin(x, y)` returns the uint8 bin of pixel (x, y) of the level (LbpBinView is the
// host's, over a row-major plane).
#pragma once

#include <cstdint>
#include <vector>

#include "common/exact_math.hpp"
#include "common/hd.hpp"
#include "common/image.hpp"

namespace cascade {

constexpr int kLbpUniformBins = 59;

namespace detail {

// Bit c of word c / 64: code c is uniform (at most two 0/1 transitions around the circle of neighbours).
CASCADE_HD std::uint64_t lbp_uniform_word(int k) {
    return k == 0 ? 0xd1010001d101d1dfull : k == 1 ? 0xd101000100000001ull : k == 2 ? 0x800000008000808bull
                                                                                    : 0xfb8b808b8000808bull;
}

CASCADE_HD int popcount64(std::uint64_t v) {
#if defined(__CUDA_ARCH__)
    return __popcll(v);
#else
    return __builtin_popcountll(v);
#endif
}

}  // namespace detail

// The uniform bin of LBP code `code` (0..255): the 58 uniform codes get bins 0..57 in ascending code order,
// the other 198 codes share bin 58. Arithmetic (a rank among the set bits of four constant words), so that the
// device needs no table.
CASCADE_HD int lbp_uniform_bin(int code) {
    const int word = code >> 6, bit = code & 63;
    const std::uint64_t w = detail::lbp_uniform_word(word);
    if (!(w >> bit & 1u)) return kLbpUniformBins - 1;
    int rank = detail::popcount64(w & ((std::uint64_t{1} << bit) - 1));
    for (int k = 0; k < word; ++k) rank += detail::popcount64(detail::lbp_uniform_word(k));
    return rank;
}

// LBP_{8,1} code of pixel (x, y) of a grey image `g` (`g.at(x, y)`) of width x height: the 3x3 neighbours at
// coordinates clamped to the image, clockwise from the top-left = bit 7, a bit set when the neighbour is >= the
// centre: lbp_code_of's code (common/lbp_eval.hpp) of 1x1 cells.
template <class Grey>
CASCADE_HD int lbp_pixel_code(const Grey& g, int width, int height, int x, int y) {
    const int dx[8] = {-1, 0, 1, 1, 1, 0, -1, -1}, dy[8] = {-1, -1, -1, 0, 1, 1, 1, 0};
    const int centre = g.at(x, y);
    int code = 0;
CASCADE_UNROLL
    for (int k = 0; k < 8; ++k) {
        const int nx = x + dx[k] < 0 ? 0 : x + dx[k] >= width ? width - 1 : x + dx[k];
        const int ny = y + dy[k] < 0 ? 0 : y + dy[k] >= height ? height - 1 : y + dy[k];
        code = code << 1 | (g.at(nx, ny) >= centre ? 1 : 0);
    }
    return code;
}

// A row-major plane of uniform bins (the host's bin sampler).
struct LbpBinView {
    const std::uint8_t* data = nullptr;
    int width = 0, height = 0, stride = 0;

    CASCADE_HD std::uint8_t lbp_bin(int x, int y) const { return data[y * stride + x]; }
};

struct LbpBinPlane {
    int width = 0, height = 0;
    std::vector<std::uint8_t> bins;  // row-major, stride == width

    LbpBinView view() const { return {bins.data(), width, height, width}; }
};

// Each pixel's uniform bin of its lbp_pixel_code.
LbpBinPlane build_lbp_bin_plane(const GrayView& level);

// counts[b] = how many pixels of the side x side cell with top-left corner (x, y) have bin b.
template <class Sampler>
CASCADE_HD void lbp_cell_counts(const Sampler& s, int x, int y, int side, int (&counts)[kLbpUniformBins]) {
    for (int b = 0; b < kLbpUniformBins; ++b) counts[b] = 0;
    for (int r = 0; r < side; ++r)
        for (int c = 0; c < side; ++c) ++counts[s.lbp_bin(x + c, y + r)];
}

// The side x side cell's L1-sqrt histogram, sqrt(counts[b] / area) for every bin b, each step as
// lbp_histogram_dot takes it: a trainer's SVM over these values projects them bit for bit as the detector does.
template <class Sampler>
void lbp_cell_features(const Sampler& s, int x, int y, int side, float out[kLbpUniformBins]) {
    int counts[kLbpUniformBins];
    lbp_cell_counts(s, x, y, side, counts);
    const auto area = static_cast<float>(side * side);
    for (int b = 0; b < kLbpUniformBins; ++b) out[b] = exact::sqrt(exact::div(static_cast<float>(counts[b]), area));
}

// sum over i < n_bins of weights[i] * sqrt(counts[first_bin + i] / area) (the L1-sqrt normalisation: a cell of
// `area` pixels), in float, i ascending, each operation rounded once (exact::), so that the CPU and GPU agree bit
// for bit. A slice of bins lets a caller split one cell among threads (and add the parts in a fixed order).
CASCADE_HD float lbp_histogram_dot(const int* counts, int area, const float* weights, int first_bin, int n_bins) {
    const float a = static_cast<float>(area);
    float sum = 0.f;
    for (int i = 0; i < n_bins; ++i)
        sum = exact::add(sum, exact::mul(weights[i], exact::sqrt(exact::div(static_cast<float>(counts[first_bin + i]), a))));
    return sum;
}

}  // namespace cascade
