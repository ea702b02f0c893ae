// The uniform-LBP cell histograms of common/lbp_uniform.hpp against direct computations: the 59-bin map against
// the definition (ascending rank of the codes with at most two transitions), each pixel's code against the
// multi-block LBP code of 1x1 cells (lbp_code_of) on OpenCV's border-replicated copy of real images, cell
// counts against a count over the plane and against the sum of four 8x8 blocks (the experiment's grid, branch
// lbp35b-exp), the L1-sqrt dot against a double computation.
#include <doctest/doctest.h>

#include <cmath>
#include <opencv2/core.hpp>
#include <random>
#include <vector>

#include "common/integral.hpp"
#include "common/lbp_eval.hpp"
#include "common/lbp_uniform.hpp"
#include "tests/support/test_data.hpp"

namespace {

using namespace cascade;

int transitions(int code) {
    int n = 0;
    for (int k = 0; k < 8; ++k) n += (code >> k & 1) != (code >> ((k + 1) % 8) & 1);
    return n;
}

GrayView view_of_mat(const cv::Mat& m) { return {m.data, m.cols, m.rows, static_cast<int>(m.step)}; }

// counts of the side x side cell at (x, y), read straight from the plane's vector.
std::vector<int> naive_counts(const LbpBinPlane& p, int x, int y, int side) {
    std::vector<int> n(kLbpUniformBins, 0);
    for (int r = y; r < y + side; ++r)
        for (int c = x; c < x + side; ++c) ++n[p.bins[static_cast<std::size_t>(r) * p.width + c]];
    return n;
}

}  // namespace

TEST_CASE("uniform LBP bins: the 58 codes with at most two transitions in ascending order, the rest bin 58") {
    int next = 0;
    for (int c = 0; c < 256; ++c) {
        INFO("code " << c);
        CHECK(lbp_uniform_bin(c) == (transitions(c) <= 2 ? next++ : 58));
    }
    CHECK(next == 58);
}

TEST_CASE("LBP bin plane: each pixel's code is lbp_code_of's of 1x1 cells at replicated borders, on real images") {
    int images = 0;
    for (const test::ImageSource& source : test::real_images()) {
        const cv::Mat grey = test::load_gray(source);
        cv::Mat padded;
        cv::copyMakeBorder(grey, padded, 1, 1, 1, 1, cv::BORDER_REPLICATE);
        IntegralImage ii;
        compute_integral(view_of_mat(padded), ii);
        const LbpBinPlane plane = build_lbp_bin_plane(view_of_mat(grey));
        REQUIRE(plane.width == grey.cols);
        REQUIRE(plane.height == grey.rows);
        long wrong = 0;
        for (int y = 0; y < grey.rows; ++y)
            for (int x = 0; x < grey.cols; ++x) {
                const LbpFeature one{static_cast<std::int16_t>(x), static_cast<std::int16_t>(y), 1, 1};
                const int code = lbp_code(ii.view(), 0, 0, one);
                wrong += plane.view().lbp_bin(x, y) != lbp_uniform_bin(code);
            }
        INFO(source.label);
        CHECK(wrong == 0);
        ++images;
    }
    if (images == 0) MESSAGE("SKIP: no real images");
}

TEST_CASE("LBP cell counts and L1-sqrt dot: a count over the plane, four 8x8 blocks, a double sum, on real images") {
    std::mt19937 random(7);
    std::uniform_real_distribution<float> weight(-1.f, 1.f);
    std::vector<float> w(kLbpUniformBins);
    for (float& v : w) v = weight(random);
    int cells = 0;
    for (const test::ImageSource& source : test::real_images()) {
        const LbpBinPlane plane = build_lbp_bin_plane(view_of_mat(test::load_gray(source)));
        INFO(source.label);
        for (int y = 0; y + 16 <= plane.height; y += 8)
            for (int x = 0; x + 16 <= plane.width; x += 8) {
                int counts[kLbpUniformBins], blocks[4][kLbpUniformBins];
                lbp_cell_counts(plane.view(), x, y, 16, counts);
                for (int k = 0; k < 4; ++k) lbp_cell_counts(plane.view(), x + 8 * (k % 2), y + 8 * (k / 2), 8, blocks[k]);
                const std::vector<int> naive = naive_counts(plane, x, y, 16);
                double reference = 0, slice = 0;
                for (int b = 0; b < kLbpUniformBins; ++b) {
                    REQUIRE(counts[b] == naive[static_cast<std::size_t>(b)]);
                    REQUIRE(counts[b] == blocks[0][b] + blocks[1][b] + blocks[2][b] + blocks[3][b]);
                    const double term = double(w[static_cast<std::size_t>(b)]) * std::sqrt(counts[b] / 256.0);
                    reference += term;
                    if (b >= 20 && b < 50) slice += term;
                }
                REQUIRE(lbp_histogram_dot(counts, 256, w.data(), 0, kLbpUniformBins) == doctest::Approx(reference).epsilon(1e-5));
                REQUIRE(lbp_histogram_dot(counts, 256, w.data() + 20, 20, 30) == doctest::Approx(slice).epsilon(1e-5));
                ++cells;
            }
    }
    if (cells == 0) MESSAGE("SKIP: no real images");
}
