// The HoG trainer's pieces without data: the responses of discrete and real AdaBoost learners on hand-computed
// cases, the final stage's block grid, and the linear SVM's loss and bias options.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "common/hog_eval.hpp"
#include "train/hog/block_svm.hpp"
#include "train/hog/final_svm.hpp"
#include "train/hog/weak_response.hpp"

using namespace cascade;
using namespace cascade::train::hog;

TEST_CASE("a discrete learner fires at projection >= 0 and votes 1/2 ln((1 - e) / e)") {
    HogWeak weak;
    // Errors: the negative at 0 (fires) and the positive at -1 (does not): weight 0.1 + 0.2 of 1.
    const std::vector<float> p = {0.5f, -1.f, 0.f, -0.5f, 2.f};
    const std::vector<int> labels = {1, 1, -1, -1, 1};
    const std::vector<double> w = {0.2, 0.2, 0.1, 0.3, 0.2};
    CHECK(fit_response(weak, p, labels, w, 0) == doctest::Approx(0.3));
    CHECK(is_vote(weak));
    CHECK(weak.responses[1] == doctest::Approx(0.5 * std::log(0.7 / 0.3)));
    CHECK(hog_response(weak, 0.f) == weak.responses[1]);
}

TEST_CASE("a real AdaBoost learner cuts at weighted quantiles and responds 1/2 ln(W+ / W-) per bin") {
    HogWeak weak;
    // Four samples of equal weight, two bins: the cut is the projection of the third (half the weight below).
    const std::vector<float> p = {-2.f, -1.f, 1.f, 3.f};
    const std::vector<int> labels = {-1, 1, 1, 1};
    const std::vector<double> w = {1.0, 1.0, 1.0, 1.0};  // not normalised: shares of 1/4
    const double z = fit_response(weak, p, labels, w, 2);
    REQUIRE(weak.num_cuts == 1);
    CHECK(weak.cuts[0] == 1.f);
    const double eps = 0.5 / 4;  // 1 / (2 n)
    CHECK(weak.responses[0] == doctest::Approx(0.5 * std::log((0.25 + eps) / (0.25 + eps))));
    CHECK(weak.responses[1] == doctest::Approx(0.5 * std::log((0.5 + eps) / eps)));
    CHECK(weak.slope == 0.f);
    CHECK(z == doctest::Approx(2.0 * std::sqrt(0.25 * 0.25)));
    CHECK(hog_response(weak, 0.99f) == weak.responses[0]);
    CHECK(hog_response(weak, 1.f) == weak.responses[1]);

    // Tied projections give fewer cuts, never two equal ones; weights move the quantiles.
    const double z_tied = fit_response(weak, {1.f, 1.f, 1.f, 1.f}, labels, w, 4);
    CHECK(weak.num_cuts == 0);
    CHECK(z_tied == doctest::Approx(2.0 * std::sqrt(0.75 * 0.25)));
    fit_response(weak, p, labels, {6.0, 1.0, 1.0, 0.0}, 2);  // half the weight is the first sample's
    REQUIRE(weak.num_cuts == 1);
    CHECK(weak.cuts[0] == -1.f);
    for (int k = weak.num_cuts + 1; k < kHogMaxBins; ++k) CHECK(weak.responses[k] == 0.f);
}

TEST_CASE("the final stage's grid is Dalal and Triggs' 105 blocks of 16x16 at stride 8") {
    const std::vector<Rect> grid = block_grid({64, 128}, 16, 8);
    CHECK(grid.size() == 105);
    CHECK(grid.front() == Rect{0, 0, 16, 16});
    CHECK(grid[1] == Rect{8, 0, 16, 16});
    CHECK(grid.back() == Rect{48, 112, 16, 16});
    CHECK(block_grid({64, 128}, 32, 16).size() == 21);
    // Several grids: one after the other, each in reading order.
    const std::vector<Rect> both = block_grids({64, 128}, {{16, 8}, {32, 16}});
    REQUIRE(both.size() == 126);
    CHECK(both[104] == grid.back());
    CHECK(both[105] == Rect{0, 0, 32, 32});
    CHECK(both.back() == Rect{32, 96, 32, 32});
}

namespace {

// How many of the 1-D samples x (labels: the first half -1, the second +1) the SVM puts on their side with a
// functional margin of at least 1/2.
int separated(const std::vector<float>& x, const SvmOptions& options) {
    std::vector<int> labels(x.size(), 1);
    std::fill(labels.begin(), labels.begin() + static_cast<long>(x.size() / 2), -1);
    const std::vector<float> w = train_linear_svm(x, 1, labels, std::vector<int>(x.size(), 1), options);
    int right = 0;
    for (std::size_t i = 0; i < x.size(); ++i) right += static_cast<float>(labels[i]) * (w[0] * x[i] + w[1]) >= 0.5f;
    return right;
}

}  // namespace

TEST_CASE("the SVM's bias is regularised as the weight of its constant feature: a larger feature frees it") {
    // Negatives at 9.6..9.79, positives at 10.2..10.39: a margin of 1 needs w >= 5 and a bias near -10 w,
    // which costs about 50^2 / 2 as the weight of feature 1 (more than the 40 samples' losses at C 1), but
    // 0.5^2 / 2 as that of feature 100.
    std::vector<float> x;
    for (int i = 0; i < 20; ++i) x.push_back(9.6f + 0.01f * static_cast<float>(i));
    for (int i = 0; i < 20; ++i) x.push_back(10.2f + 0.01f * static_cast<float>(i));
    SvmOptions options;
    CHECK(separated(x, options) < 10);
    options.bias_feature = 100.0;
    CHECK(separated(x, options) == 40);
}
