// The CPU HoG detector against a brute-force scan written independently of run_stages, its statistics, and
// mean-shift grouping.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "common/hog_block_pool.hpp"
#include "common/hog_cpu_detector.hpp"
#include "common/mean_shift.hpp"
#include "common/model.hpp"
#include "common/resize_exact.hpp"
#include "tests/support/sanitized.hpp"
#include "tests/support/test_data.hpp"

using namespace cascade;

namespace {

// A cascade of random weak learners on pool blocks, discrete votes and real-valued responses; thresholds put
// each stage near its median on random windows, so that windows leave at every stage and some pass.
HogCascade random_cascade(unsigned seed, int stages, int per_stage) {
    std::mt19937 random(seed);
    const std::vector<Rect> pool = hog_block_pool({64, 128});
    HogCascade c;
    c.window = {64, 128};
    for (int s = 0; s < stages; ++s) {
        c.stages.push_back({static_cast<int>(c.weaks.size()), per_stage, s == 0 ? -0.5f : 0.f});
        for (int k = 0; k < per_stage; ++k) {
            HogWeak w;
            w.block = pool[random() % pool.size()];
            std::normal_distribution<float> normal(0.f, 1.f);
            for (float& x : w.weights) x = normal(random);
            w.bias = 0.05f * normal(random);
            set_vote(w, 0.5f + 0.1f * static_cast<float>(k));
            if (k % 3 > 0) {  // real-valued responses over three bins, and a linear term
                w.num_cuts = 2;
                w.cuts[0] = -0.05f;
                w.cuts[1] = 0.1f;
                w.responses[0] = -0.5f;
                w.responses[1] = 0.25f;
                w.responses[2] = 0.75f;
                w.slope = k % 3 == 2 ? 0.5f : 0.f;
            }
            c.weaks.push_back(w);
        }
    }
    validate(c, "random cascade");
    return c;
}

// random_cascade with a last stage of `blocks` Dalal-Triggs learners (of `descriptor`) on 16x16 blocks of the
// stride-8 grid, each a linear term of its projection (as the final SVM's blocks), threshold 0.
HogCascade with_dalal_triggs_stage(HogCascade c, unsigned seed, int blocks,
                                   std::int32_t descriptor = kHogDescriptorDalalTriggs) {
    std::mt19937 random(seed);
    std::normal_distribution<float> normal(0.f, 1.f);
    c.stages.push_back({static_cast<int>(c.weaks.size()), blocks, 0.f});
    for (int k = 0; k < blocks; ++k) {
        HogWeak w;
        w.block = {8 * static_cast<int>(random() % 7), 8 * static_cast<int>(random() % 15), 16, 16};
        for (float& x : w.weights) x = normal(random);
        w.num_cuts = 0;
        w.slope = 1.f;
        w.descriptor = descriptor;
        c.weaks.push_back(w);
    }
    validate(c, "random cascade with a Dalal-Triggs stage");
    return c;
}

// `c` with a last stage of LBP-histogram learners on random 16x16 cells (either half of the bins; some cells
// 8x8 or 12x12), each a linear term of its projection (as the final SVM's cells), threshold 0.
HogCascade with_lbp_stage(HogCascade c, unsigned seed, int learners) {
    std::mt19937 random(seed);
    std::normal_distribution<float> normal(0.f, 1.f);
    c.stages.push_back({static_cast<int>(c.weaks.size()), learners, 0.f});
    for (int k = 0; k < learners; ++k) {
        HogWeak w;
        const int side = k % 3 == 0 ? 16 : k % 3 == 1 ? 8 : 12;
        w.block = {static_cast<int>(random() % static_cast<unsigned>(65 - side)),
                   static_cast<int>(random() % static_cast<unsigned>(129 - side)), side, side};
        w.descriptor = kHogDescriptorLbpHistogram;
        w.first_bin = k % 2 == 0 ? 0 : 36;
        for (int i = 0; i < lbp_learner_bins(w.first_bin); ++i) w.weights[i] = normal(random);
        w.bias = 0.5f * normal(random);
        w.num_cuts = 0;
        w.slope = 1.f;
        c.weaks.push_back(w);
    }
    validate(c, "random cascade with an LBP-histogram stage");
    return c;
}

struct Scan {
    std::vector<Rect> accepted;
    std::int64_t windows = 0, weaks = 0;
};

// The uniform-LBP bin of an 8-bit code, written independently of common/lbp_uniform.hpp: the rank of the code
// among the codes with at most two 0/1 transitions around the circle, 58 for the others.
int naive_uniform_bin(int code) {
    const auto uniform = [](int c) {
        int transitions = 0;
        for (int k = 0; k < 8; ++k) transitions += ((c >> k) & 1) != ((c >> ((k + 1) % 8)) & 1);
        return transitions <= 2;
    };
    if (!uniform(code)) return 58;
    int rank = 0;
    for (int c = 0; c < code; ++c) rank += uniform(c) ? 1 : 0;
    return rank;
}

// An LBP-histogram learner's projection computed from the pixels in double: each pixel's code from its 8 clamped
// neighbours (clockwise from the top-left, the first the highest bit, set when >= the centre), the cell's counts,
// bias + sum of weights times sqrt(count / area).
double naive_lbp_projection(const GrayView& image, int wx, int wy, const HogWeak& w) {
    const int dx[8] = {-1, 0, 1, 1, 1, 0, -1, -1}, dy[8] = {-1, -1, -1, 0, 1, 1, 1, 0};
    std::vector<int> counts(59, 0);
    for (int y = wy + w.block.y; y < wy + w.block.y + w.block.height; ++y)
        for (int x = wx + w.block.x; x < wx + w.block.x + w.block.width; ++x) {
            int code = 0;
            for (int k = 0; k < 8; ++k) {
                const int nx = std::clamp(x + dx[k], 0, image.width - 1), ny = std::clamp(y + dy[k], 0, image.height - 1);
                code = code * 2 + (image.at(nx, ny) >= image.at(x, y) ? 1 : 0);
            }
            ++counts[static_cast<std::size_t>(naive_uniform_bin(code))];
        }
    double dot = w.bias;
    for (int i = 0; i < kHogBlockDims && w.first_bin + i < 59; ++i)
        dot += static_cast<double>(w.weights[i]) *
               std::sqrt(counts[static_cast<std::size_t>(w.first_bin + i)] / double(w.block.width * w.block.height));
    return dot;
}

// Weak learner w's float projection at (x, y) of a level, as the detector computes it, checked against a double
// computation of the same dot product.
float checked_projection(const HogPlanes& planes, const GrayView& level, int x, int y, const HogWeak& w) {
    if (w.descriptor == kHogDescriptorLbpHistogram) {
        const float p = lbp_learner_projection(planes.sampler(), x, y, w);
        REQUIRE(std::abs(naive_lbp_projection(level, x, y, w) - p) < 1e-5);
        return p;
    }
    float v[kHogBlockDims];
    if (is_dalal_triggs(w.descriptor))
        dalal_triggs_block(planes.sampler(), x, y, w.block, w.descriptor == kHogDescriptorDalalTriggsGamma, v);
    else
        hog_block_descriptor(planes.integral.view(), x, y, w.block, v);
    const float p = hog_projection(w, v);
    double dot = w.bias;
    for (int d = 0; d < kHogBlockDims; ++d) dot += static_cast<double>(w.weights[d]) * v[d];
    REQUIRE(std::abs(dot - p) < 1e-5);  // the float projection is the dot product
    return p;
}

// Every window of every level, each weak learner evaluated through its own descriptor, stage sums in double.
Scan brute_force(const HogCascade& c, const GrayView& image, const ScanParams& params) {
    Scan out;
    for (const PyramidLevel& level : pyramid_levels(image.size(), c.window, params.pyramid)) {
        GrayImage scaled(level.size.width, level.size.height);
        resize_linear_exact(image, scaled);
        HogPlanes planes;
        compute_hog_planes(scaled.view(), planes, uses_lbp_bins(c));
        for (int y = 0; y + c.window.height <= level.size.height; y += params.rule.stride)
            for (int x = 0; x + c.window.width <= level.size.width; x += params.rule.stride) {
                ++out.windows;
                bool passed = true;
                for (const Stage& stage : c.stages) {
                    double sum = 0.0;
                    for (int i = stage.first; i < stage.first + stage.count; ++i) {
                        const HogWeak& w = c.weaks[i];
                        const float p = checked_projection(planes, scaled.view(), x, y, w);
                        int bin = 0;
                        while (bin < w.num_cuts && p >= w.cuts[bin]) ++bin;
                        sum += w.responses[bin] + static_cast<float>(w.slope * p);
                        ++out.weaks;
                    }
                    if (sum < stage.threshold) {
                        passed = false;
                        break;
                    }
                }
                if (passed) out.accepted.push_back(to_image(level, x, y));
            }
    }
    std::sort(out.accepted.begin(), out.accepted.end());
    return out;
}

}  // namespace

namespace {

// Runs the detector and the brute-force scan of `c` over the real images at both scan settings.
void check_against_brute_force(const HogCascade& c, const std::vector<test::ImageSource>& images) {
    int compared = 0;
    std::size_t accepted = 0;
    for (const auto& source : images) {
        if (source.frame > 0) continue;
        const cv::Mat gray = test::load_gray(source);
        const GrayView image{gray.data, gray.cols, gray.rows, static_cast<int>(gray.step)};
        for (const auto& [stride, factor] : {std::pair{kHogSparseStride, 1.2}, std::pair{kHogDenseStride, 1.1}}) {
            ScanParams params;
            params.rule.stride = stride;
            params.pyramid.scale_factor = factor;
            ScanStats stats;
            const std::vector<Detection> found = detect_windows(c, image, params, &stats);
            const Scan expected = brute_force(c, image, params);
            std::vector<Rect> rects;
            for (const Detection& d : found) rects.push_back(d.rect);
            CHECK_MESSAGE(rects == expected.accepted, source.label << ": " << rects.size() << " vs " << expected.accepted.size());
            CHECK(stats.windows == expected.windows);
            CHECK(stats.weaks == expected.weaks);
            std::int64_t total = 0;
            for (std::int64_t n : stats.rejected_at) total += n;
            CHECK(total == stats.windows);
            CHECK(stats.rejected_at.back() == static_cast<std::int64_t>(found.size()));
            ++compared;
            accepted += found.size();
        }
    }
    CHECK(compared > 0);
    CHECK(accepted > 0);  // the random cascade lets some windows through, so acceptance is tested too
}

}  // namespace

TEST_CASE("the HoG detector accepts the windows a brute-force scan accepts, and counts its work") {
    const auto images = test::real_images();
    if (images.empty()) return;
    check_against_brute_force(random_cascade(7, 4, 3), images);
}

TEST_CASE("the HoG detector runs a last stage of Dalal-Triggs blocks, plain or gamma, as the brute-force scan does") {
    auto images = test::real_images();
    if (images.empty()) return;
    if (test::kSanitized) images.resize(std::min<std::size_t>(images.size(), 2));  // 116 s for all under ASan
    check_against_brute_force(with_dalal_triggs_stage(random_cascade(7, 4, 3), 8, 6), images);
    check_against_brute_force(with_dalal_triggs_stage(random_cascade(7, 4, 3), 8, 6, kHogDescriptorDalalTriggsGamma), images);
}

TEST_CASE("the HoG detector runs a last stage of LBP-histogram learners (HOG-LBP) as the brute-force scan does") {
    auto images = test::real_images();
    if (images.empty()) return;
    if (test::kSanitized) images.resize(std::min<std::size_t>(images.size(), 2));  // 232 s for all under ASan
    check_against_brute_force(with_lbp_stage(with_dalal_triggs_stage(random_cascade(7, 4, 3), 8, 6), 9, 8), images);
}

TEST_CASE("mean shift merges each cluster of windows into one mode and ignores input order") {
    const Size window{64, 128};
    std::vector<Detection> raw;
    std::mt19937 random(3);
    std::uniform_int_distribution<int> jitter(-3, 3);
    // Three people: at scale 1 near (100, 50), at scale 2 near (300, 40), at scale 1 near (120, 300).
    const int people[][3] = {{100, 50, 64}, {300, 40, 128}, {120, 300, 64}};
    for (const auto& p : people)
        for (int k = 0; k < 6; ++k) {
            const int w = p[2] + (k % 3 - 1) * p[2] / 16;
            raw.push_back({{p[0] + jitter(random), p[1] + jitter(random), w, 2 * w}, 1.f});
        }
    const std::vector<Detection> modes = mean_shift_modes(raw, window);
    REQUIRE(modes.size() == 3);
    for (const auto& p : people) {
        const auto near = std::find_if(modes.begin(), modes.end(), [&](const Detection& m) {
            return std::abs(m.rect.x - p[0]) <= 6 && std::abs(m.rect.y - p[1]) <= 8 && std::abs(m.rect.width - p[2]) <= p[2] / 8;
        });
        CHECK_MESSAGE(near != modes.end(), "no mode near " << p[0] << "," << p[1] << " width " << p[2]);
        if (near != modes.end()) CHECK(near->score > 3.f);  // about six supporting windows each
    }
    std::reverse(raw.begin(), raw.end());
    const std::vector<Detection> again = mean_shift_modes(raw, window);
    REQUIRE(again.size() == modes.size());
    for (std::size_t i = 0; i < modes.size(); ++i) CHECK(again[i].rect == modes[i].rect);
    CHECK(mean_shift_modes({}, window).empty());
}
