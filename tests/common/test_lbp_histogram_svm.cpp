// The LBP cascade's final histogram-SVM stage (common/model.hpp LbpHistogramSvm, common/lbp_histogram_eval.hpp):
// XML round trip and one-line errors, the CPU detector's decisions and scores against the experiment's grid
// computation (branch lbp35b-exp: 8x8 block counts summed four to a 16x16 cell, sqrt(n / 256), a dot product in
// double) on real images, and the refusal of the GPU packing.
#include <doctest/doctest.h>

#include <cmath>
#include <opencv2/imgcodecs.hpp>
#include <random>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "common/float_bits.hpp"
#include "common/lbp_cpu_detector.hpp"
#include "common/lbp_uniform.hpp"
#include "common/model_io.hpp"
#include "common/packed_model.hpp"
#include "tests/support/test_data.hpp"

namespace {

using namespace cascade;

LbpHistogramSvm random_svm(float threshold) {
    LbpHistogramSvm svm;
    svm.cells_x = 7;
    svm.cells_y = 15;
    svm.bias = 0.25f;
    svm.threshold = threshold;
    std::mt19937 random(11);
    std::uniform_real_distribution<float> w(-0.05f, 0.05f);
    svm.weights.resize(7 * 15 * kLbpUniformBins);
    for (float& v : svm.weights) v = w(random);
    return svm;
}

// A 64x128 cascade whose one stage passes every window, ending in `svm`.
LbpCascade pass_all_then(const LbpHistogramSvm& svm) {
    LbpCascade c;
    c.window = {64, 128};
    c.policy = SumPolicy::running;
    c.weaks = {LbpWeak{{0, 0, 1, 1}, 0}};
    c.responses.assign(kLbpCodes, 0.f);
    c.stages = {Stage{0, 1, -1.f}};
    c.final_svm = svm;
    return c;
}

// The experiment's score of the window at (x, y) of a plane.
double grid_score(const LbpBinPlane& p, const LbpHistogramSvm& svm, int x, int y) {
    double s = svm.bias;
    for (int j = 0; j < svm.cells_y; ++j)
        for (int i = 0; i < svm.cells_x; ++i) {
            int n[kLbpUniformBins] = {};
            for (int k = 0; k < 4; ++k)  // the cell's four 8x8 blocks
                for (int r = 0; r < 8; ++r)
                    for (int c = 0; c < 8; ++c) {
                        const int px = x + i * 8 + (k % 2) * 8 + c, py = y + j * 8 + (k / 2) * 8 + r;
                        ++n[p.bins[static_cast<std::size_t>(py) * p.width + px]];
                    }
            for (int b = 0; b < kLbpUniformBins; ++b)
                s += double(svm.weights[static_cast<std::size_t>((j * 7 + i) * kLbpUniformBins + b)]) *
                     std::sqrt(n[b] / 256.0);
        }
    return s;
}

std::string load_error(const std::string& xml) {
    try {
        load_model_from_string(xml, "m.xml");
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

std::string replaced(std::string s, const std::string& from, const std::string& to) {
    const std::size_t at = s.find(from);
    REQUIRE(at != std::string::npos);
    return s.replace(at, from.size(), to);
}

}  // namespace

TEST_CASE("LBP histogram SVM in XML: bit-exact round trip, one-line errors for bad weights, cells and versions") {
    const Model model{pass_all_then(random_svm(0.5f)), "m.xml"};
    const std::string xml = model_xml(model, "m.xml");
    const LbpCascade back = std::get<LbpCascade>(load_model_from_string(xml, "m.xml").cascade);
    REQUIRE(back.final_svm);
    const LbpHistogramSvm& a = *std::get<LbpCascade>(model.cascade).final_svm;
    const LbpHistogramSvm& b = *back.final_svm;
    CHECK(b.cell == 16);
    CHECK(b.step == 8);
    CHECK(b.cells_x == 7);
    CHECK(b.cells_y == 15);
    CHECK(float_bits(b.bias) == float_bits(a.bias));
    CHECK(float_bits(b.threshold) == float_bits(a.threshold));
    REQUIRE(b.weights.size() == a.weights.size());
    long differ = 0;
    for (std::size_t k = 0; k < a.weights.size(); ++k) differ += float_bits(a.weights[k]) != float_bits(b.weights[k]);
    CHECK(differ == 0);
    CHECK(model_xml(Model{back, "m.xml"}, "m.xml") == xml);

    const std::string first_weight = xml.substr(xml.find('>', xml.find("<histogram-svm")) + 6, 20);
    const std::string weight = first_weight.substr(0, first_weight.find(' '));
    for (const auto& bad_case : std::vector<std::pair<std::string, std::string>>{
             {replaced(xml, weight + " ", ""), "m.xml: histogram-svm: 6194 weights, expected 6195 (7x15 cells x 59 bins)"},
             {replaced(xml, "cells_x=\"7\"", "cells_x=\"8\""), "m.xml: histogram-svm: 8x15 cells of 16 pixels at step 8 leave the 64x128 window"},
             {replaced(xml, weight + " ", "nan "), "m.xml: histogram-svm: weight 0 is nan"},
             {replaced(xml, "format_version=\"" + std::to_string(kModelFormatVersion) + "\"", "format_version=\"8\""),
              "needs format_version 9 or later"},
             {replaced(xml, "l1-sqrt", "l2"), "norm 'l2' is not supported (l1-sqrt)"}}) {
        const std::string got = load_error(bad_case.first), message = bad_case.second;
        CHECK(got.find(message) != std::string::npos);
        CHECK(got.rfind("m.xml: ", 0) == 0);
        CHECK(got.find('\n') == std::string::npos);
    }
}

TEST_CASE("LBP histogram SVM on the CPU: the windows and scores of the experiment's grid computation, real images") {
    const auto data = test::shared_data_dir();
    if (!data) return;
    const std::string dir = *data + "/inria/Train/neg/";
    int compared = 0;
    for (const char* name : {"00000002a.jpg", "00000003a.jpg"}) {
        const cv::Mat grey = cv::imread(dir + name, cv::IMREAD_GRAYSCALE);
        if (grey.empty()) continue;
        const GrayView image{grey.data, grey.cols, grey.rows, static_cast<int>(grey.step)};
        const LbpBinPlane plane = build_lbp_bin_plane(image);
        const LbpHistogramSvm svm = random_svm(0.3f);
        ScanParams params;
        params.pyramid.scale_factor = 100.f;  // one level: the image itself
        params.rule.stride = 8;
        ScanStats stats;
        const std::vector<Detection> found = detect_windows(pass_all_then(svm), image, params, &stats);
        std::size_t next = 0;  // detections come sorted by (x, y)
        std::int64_t windows = 0;
        for (int x = 0; x + 64 <= grey.cols; x += 8)
            for (int y = 0; y + 128 <= grey.rows; y += 8) {
                const double expected = grid_score(plane, svm, x, y);
                const bool listed = next < found.size() && found[next].rect == Rect{x, y, 64, 128};
                INFO(std::string(name) << " window (" << x << ", " << y << ") scores " << expected);
                if (std::fabs(expected - svm.threshold) > 1e-4) CHECK(listed == (expected >= svm.threshold));
                if (listed) CHECK(found[next++].score == doctest::Approx(expected).epsilon(1e-5));
                ++compared;
                ++windows;
            }
        CHECK(next == found.size());
        // The counts: the one stage passes every window, the SVM (stage 1) rejects what it does not accept.
        const auto accepted = static_cast<std::int64_t>(found.size());
        CHECK(stats.windows == windows);
        REQUIRE(stats.rejected_at.size() == 3);
        CHECK(stats.rejected_at[0] == 0);
        CHECK(stats.rejected_at[1] == windows - accepted);
        CHECK(stats.rejected_at[2] == accepted);
        CHECK(accepted > 0);
        CHECK(accepted < windows);
    }
    if (compared == 0) MESSAGE("SKIP: inria/Train/neg images absent");
}

TEST_CASE("LBP histogram SVM: the GPU packing refuses it in one line") {
    PackedModel packed = compile_model(Model{pass_all_then(random_svm(0.f)), "m.xml"});
    std::string message;
    try {
        pack_model(packed);
    } catch (const InputError& e) {
        message = e.what();
    }
    CHECK(message == "MODEL: the LBP histogram SVM stage runs on the CPU only (--backend cpu)");
}
