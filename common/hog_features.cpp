#include "common/hog_features.hpp"

#include <algorithm>

namespace cascade {

namespace {

// hog_orientation_bin and hog_magnitude of every gradient, tabulated from those functions (so equal to them
// by construction): the host computes each pixel's vote with two lookups.
struct VoteTables {
    static constexpr int kSpan = 2 * 255 + 1;
    std::vector<std::uint8_t> bin;         // [(gy + 255) * kSpan + gx + 255]
    std::vector<std::uint16_t> magnitude;  // [|gy| * 256 + |gx|]

    VoteTables() : bin(kSpan * kSpan), magnitude(256 * 256) {
        for (int gy = -255; gy <= 255; ++gy)
            for (int gx = -255; gx <= 255; ++gx)
                bin[(gy + 255) * kSpan + gx + 255] = static_cast<std::uint8_t>(hog_orientation_bin(gx, gy));
        for (int gy = 0; gy < 256; ++gy)
            for (int gx = 0; gx < 256; ++gx) magnitude[gy * 256 + gx] = static_cast<std::uint16_t>(hog_magnitude(gx, gy));
    }

    HogVote vote(int gx, int gy) const {
        return {bin[(gy + 255) * kSpan + gx + 255], magnitude[std::abs(gy) * 256 + std::abs(gx)]};
    }
};

const VoteTables& vote_tables() {
    static const VoteTables tables;
    return tables;
}

// The integral histograms from the gradients of an image.
void compute_hog_integral(const GradientPlane& gradients, HogIntegral& out) {
    const VoteTables& tables = vote_tables();
    const int w = gradients.size.width, h = gradients.size.height, stride = (w + 1) * kHogBins;
    out.size = gradients.size;
    out.sums.resize(static_cast<std::size_t>(stride) * (h + 1));
    std::fill(out.sums.begin(), out.sums.begin() + stride, 0u);  // row 0; column 0 of each row below
    for (int y = 0; y < h; ++y) {
        const GradientPair* row = &gradients.pairs[static_cast<std::size_t>(y) * w];
        std::uint32_t row_sum[kHogBins] = {};
        const std::uint32_t* above = &out.sums[static_cast<std::size_t>(y) * stride];
        std::uint32_t* here = &out.sums[static_cast<std::size_t>(y + 1) * stride];
        std::fill(here, here + kHogBins, 0u);
        for (int x = 0; x < w; ++x) {
            const HogVote v = tables.vote(row[x].gx, row[x].gy);
            row_sum[v.bin] += v.magnitude;
            const std::size_t at = static_cast<std::size_t>(x + 1) * kHogBins;
            for (int b = 0; b < kHogBins; ++b) here[at + b] = above[at + b] + row_sum[b];
        }
    }
}

}  // namespace

void compute_hog_integral(const GrayView& image, HogIntegral& out) {
    thread_local GradientPlane gradients;
    compute_gradient_plane(image, gradients);
    compute_hog_integral(gradients, out);
}

void compute_gradient_plane(const GrayView& image, GradientPlane& out, bool gamma) {
    // hog_gamma tabulated (equal to it by construction): a square root per pixel read would cost more than the
    // rest of the planes.
    static const std::vector<int> gamma_table = [] {
        std::vector<int> t(256);
        for (int v = 0; v < 256; ++v) t[static_cast<std::size_t>(v)] = hog_gamma(v);
        return t;
    }();
    const int w = image.width, h = image.height;
    out.size = image.size();
    out.pairs.resize(static_cast<std::size_t>(w) * h);
    const auto identity = [](int v) { return v; };
    const auto corrected = [](int v) { return gamma_table[static_cast<std::size_t>(v)]; };
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            out.pairs[static_cast<std::size_t>(y) * w + x] =
                gamma ? hog_gradient_of(image, x, y, corrected) : hog_gradient_of(image, x, y, identity);
}

void compute_hog_planes(const GrayView& image, HogPlanes& out, bool with_lbp_bins) {
    compute_gradient_plane(image, out.gradients);
    compute_gradient_plane(image, out.gamma_gradients, true);
    compute_hog_integral(out.gradients, out.integral);
    if (with_lbp_bins)
        out.lbp_bins = build_lbp_bin_plane(image);
    else
        out.lbp_bins = LbpBinPlane{};
}

}  // namespace cascade
