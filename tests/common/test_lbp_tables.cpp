// The LBP fast form (common/lbp_tables.hpp) on the CPU, against the plain evaluation it stands for: stump
// tables decode to every entry of OpenCV's response tables bit for bit, and TileWindow over an integral image's
// rows gives LbpWindow's response for every weak learner and LbpWindow's decisions and sums for every window, on
// real images, with stump tables and with response tables; TileWindowPair and run_stages_pair (two windows side
// by side, the GPU's first group) give TileWindow's and run_stages' answers for both windows.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "common/cascade_eval.hpp"
#include "common/float_bits.hpp"
#include "common/integral.hpp"
#include "common/lbp_tables.hpp"
#include "common/model_io.hpp"
#include "tests/support/test_data.hpp"
#include "tests/support/sanitized.hpp"

namespace {

using namespace cascade;

LbpCascade lbp_model(const std::string& path) { return std::get<LbpCascade>(load_model(path).cascade); }

// TileWindowPair over `left` and `right` (TileWindows one element apart) against them: every weak learner's two
// responses bit for bit, and run_stages_pair against run_stages for both windows, over every stage and over the
// first three (the GPU's first group). Returns false after a failure.
template <bool kStumps>
bool compare_pair(const LbpCascadeView& view, const TileWindow<kStumps>& left, const TileWindow<kStumps>& right) {
    const TileWindowPair<kStumps> pair{left.responses, left.weaks, left.stumps, left.origin};
    for (int i = 0; i < weak_count(view); ++i) {
        const ResponsePair r = pair(i);
        if (float_bits(r.left) != float_bits(left(i)) || float_bits(r.right) != float_bits(right(i))) {
            FAIL("weak learner " << i);
            return false;
        }
    }
    for (const int end : {view.num_stages, std::min(3, view.num_stages)}) {
        double sum[2] = {0.0, 0.0}, left_sum = 0.0, right_sum = 0.0;
        int reached[2];
        run_stages_pair(view, pair, 0, end, sum, reached);
        const int left_stop = run_stages(view, left, 0, end, left_sum);
        const int right_stop = run_stages(view, right, 0, end, right_sum);
        CHECK((reached[0] == left_stop && sum[0] == left_sum));
        CHECK((reached[1] == right_stop && sum[1] == right_sum));
    }
    return true;
}

// Every weak learner's response and every window's decision and sum, TileWindow<kStumps> against LbpWindow, at
// `step` pixel steps over `image`, and compare_pair at each of them with the window to its right; returns the
// number of windows compared, adding the pairs to `pairs`.
template <bool kStumps>
long long compare_windows(const LbpCascade& c, const std::vector<std::uint32_t>& stumps, const cv::Mat& image,
                          int step, long long& pairs) {
    IntegralImage integral;
    compute_integral({image.data, image.cols, image.rows, static_cast<int>(image.step)}, integral);
    const IntegralView sums = integral.view();
    const std::vector<TileWeak> weaks = tile_weaks(c, kStumps, sums.stride);
    const LbpCascadeView view = view_of(c);
    long long windows = 0;
    for (int y = 0; y + c.window.height <= image.rows; y += step)
        for (int x = 0; x + c.window.width <= image.cols; x += step) {
            const LbpWindow<IntegralView> plain{view, sums, x, y};
            const TileWindow<kStumps> fast{c.responses.data(), weaks.data(), stumps.data(), sums.origin(x, y)};
            for (std::size_t i = 0; i < c.weaks.size(); ++i)
                if (float_bits(fast(static_cast<int>(i))) != float_bits(plain(static_cast<int>(i)))) {
                    FAIL("weak learner " << i << " at (" << x << ", " << y << ")");
                    return windows;
                }
            double plain_sum = 0.0, fast_sum = 0.0;
            const int plain_stop = run_stages(view, plain, 0, view.num_stages, plain_sum);
            const int fast_stop = run_stages(view, fast, 0, view.num_stages, fast_sum);
            CHECK((plain_stop == fast_stop && plain_sum == fast_sum));
            ++windows;
            if (x + 1 + c.window.width > image.cols) continue;
            INFO("pair at (" << x << ", " << y << ")");
            const TileWindow<kStumps> right{c.responses.data(), weaks.data(), stumps.data(), sums.origin(x + 1, y)};
            if (!compare_pair(view, fast, right)) return windows;
            ++pairs;
        }
    return windows;
}

}  // namespace

TEST_CASE("stump tables: OpenCV's LBP cascades as subsets and two leaves give every table entry, bit for bit") {
    const auto files = test::opencv_lbp_cascades();
    if (files.empty()) MESSAGE("SKIP: no OpenCV LBP cascades (opencv-data)");
    for (const std::string& file : files) {
        const LbpCascade c = lbp_model(file);
        const std::vector<std::uint32_t> stumps = stump_tables(c);
        REQUIRE(stumps.size() == c.weaks.size() * kStumpWords);
        int both_leaves = 0;
        for (std::size_t i = 0; i < c.weaks.size(); ++i) {
            const std::uint32_t* s = stumps.data() + i * kStumpWords;
            both_leaves += s[8] != s[9];
            for (int code = 0; code < kLbpCodes; ++code) {
                const float table = c.responses[static_cast<std::size_t>(c.weaks[i].table) * kLbpCodes + code];
                INFO(file << ", weak learner " << i << ", code " << code);
                REQUIRE(float_bits(stump_response(stumps.data(), static_cast<unsigned>(i * kStumpWords), code)) ==
                        float_bits(table));
            }
        }
        CHECK(both_leaves == static_cast<int>(c.weaks.size()));  // every stump splits its codes
        CHECK(stumps_match_tables(c, stumps));
        std::vector<std::uint32_t> flipped = stumps;  // one code moved to the other leaf
        flipped[kStumpWords * (c.weaks.size() / 2)] ^= 1u;
        CHECK_FALSE(stumps_match_tables(c, flipped));
        flipped.pop_back();
        CHECK_FALSE(stumps_match_tables(c, flipped));
    }
}

TEST_CASE("stump tables: a WaldBoost model's real-valued tables are kept as tables") {
    const LbpCascade c = lbp_model(std::string(CASCADE_SOURCE_DIR) + "/models/pedestrian_lbp_64x128.xml");
    CHECK(stump_tables(c).empty());
    const std::vector<TileWeak> weaks = tile_weaks(c, false, 65);
    REQUIRE(weaks.size() == c.weaks.size());
    for (std::size_t i = 0; i < weaks.size(); ++i) {
        CHECK(weaks[i].table == c.weaks[i].table * kLbpCodes);
        const LbpSteps k = lbp_steps(c.weaks[i].feature, 65);
        CHECK((weaks[i].steps.first == k.first && weaks[i].steps.row == k.row && weaks[i].steps.col == k.col));
    }
}

TEST_CASE("TileWindow gives LbpWindow's responses, decisions and sums on real images, TileWindowPair and "
          "run_stages_pair give TileWindow's and run_stages' for both windows") {
    const auto images = test::real_images();
    const auto files = test::opencv_lbp_cascades();
    if (images.empty() || files.empty()) {
        MESSAGE("SKIP: no real images or no OpenCV LBP cascades");
        return;
    }
    long long windows = 0, pairs = 0;
    const std::size_t image_count = test::kSanitized ? 1 : 3;  // 182 s for 3 under ASan on CI's 2 cores
    for (std::size_t n = 0; n < images.size() && n < image_count; ++n) {
        const cv::Mat image = test::load_gray(images[n]);
        for (const std::string& file : files) {
            INFO(file << " on " << images[n].label);
            const LbpCascade c = lbp_model(file);
            windows += compare_windows<true>(c, stump_tables(c), image, 7, pairs);
            windows += compare_windows<false>(c, {}, image, 7, pairs);
        }
        const LbpCascade wald = lbp_model(std::string(CASCADE_SOURCE_DIR) + "/models/pedestrian_lbp_64x128.xml");
        INFO("pedestrian_lbp_64x128.xml on " << images[n].label);
        windows += compare_windows<false>(wald, {}, image, 5, pairs);
    }
    MESSAGE(windows << " windows and " << pairs << " pairs of windows compared");
    CHECK(windows > 1000);
    CHECK(pairs > 1000);
}
