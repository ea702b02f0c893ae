// The GPU LBP detector against the CPU reference (common/lbp_cpu_detector.hpp) on real frames.
// Exact mode: for every compaction strategy, the raw windows and their scores EQUAL detect_windows', for
// OpenCV's frontal face cascades, WaldBoost-style running-sum models (with and without acceptance thresholds)
// and the WaldBoost pedestrian models cascade-train wrote, at scale factors 1.1 and 1.2, with OpenCV's scan rule
// and stride 1. Texture mode: close to the CPU within a stated tolerance.
// Every test prints "SKIP: no CUDA device" and returns where there is no GPU.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "common/error.hpp"
#include "common/grouping.hpp"
#include "common/lbp_cpu_detector.hpp"
#include "common/lbp_uniform.hpp"
#include "gpu/frame_layout.hpp"
#include "gpu/lbp_gpu_detector.hpp"
#include "tests/gpu/gpu_test_data.hpp"
#include "tests/gpu/waldboost_like.hpp"
#include "tests/gpu/window_compare.hpp"

namespace {

using namespace cascade;
using gpu::Compaction;
using gpu::LbpGpuDetector;
using gpu::LbpGpuOptions;
using gpu::PyramidMode;

std::vector<Detection> cpu_windows(const LbpCascade& c, const GrayView& frame, double factor, int stride) {
    ScanParams params;
    params.pyramid.scale_factor = factor;
    params.rule.stride = stride;
    auto out = detect_windows(c, frame, params);
    std::sort(out.begin(), out.end(), test::by_rect_then_score);
    return out;
}

std::vector<Compaction> every_strategy() {
    auto all = gpu::concrete_compactions();
    all.push_back(Compaction::automatic);
    return all;
}

// Every strategy (and automatic) on every frame, at both scale factors and both scan rules; returns the number
// of CPU windows compared.
long long check_parity(const LbpCascade& c, const std::vector<test::Frame>& frames, const std::string& name) {
    long long windows = 0;
    for (double factor : {1.1, 1.2})
        for (int stride : {0, 1}) {
            std::vector<LbpGpuDetector> detectors;
            for (Compaction s : every_strategy()) {
                LbpGpuOptions o;
                o.compaction = s;
                o.pyramid.scale_factor = factor;
                o.rule.stride = stride;
                o.auto_frames = 2;
                detectors.emplace_back(c, o);
            }
            for (const auto& f : frames) {
                const auto cpu = cpu_windows(c, f.image.view(), factor, stride);
                windows += static_cast<long long>(cpu.size());
                for (auto& d : detectors) {
                    const auto found = d.detect(f.image.view());
                    INFO(name << " on " << f.label << ", factor " << factor << ", stride " << stride << ", strategy "
                              << gpu::to_string(d.last_stats().strategy) << " ("
                              << gpu::to_string(d.options().compaction) << ")");
                    CHECK_MESSAGE(test::equal_windows(found, cpu), test::difference(found, cpu));
                }
            }
        }
    return windows;
}

// The WaldBoost-style model (tests/gpu/waldboost_like.hpp) of `face`, its thresholds set on the first frames.
test::WaldboostLike waldboost_like(const LbpCascade& face, const std::vector<test::Frame>& frames,
                                   const test::WaldboostLikeParams& params = {}) {
    std::vector<GrayView> sample;
    for (std::size_t i = 0; i < frames.size() && i < 3; ++i) sample.push_back(frames[i].image.view());
    return test::make_waldboost_like(face, sample, params);
}

}  // namespace

TEST_CASE("exact mode: every strategy gives the CPU's raw windows for OpenCV's frontal face cascades") {
    if (!test::have_cuda_device()) return;
    const auto dir = test::gpu_data_dir();
    if (!dir) return;
    const auto frames = test::load_frames(*dir);
    if (frames.empty()) return;
    long long windows = 0;
    for (const char* file : {"lbpcascade_frontalface.xml", "lbpcascade_frontalface_improved.xml"}) {
        const auto c = test::load_lbp_model(*dir, file);
        if (!c) continue;
        windows += check_parity(*c, frames, file);
    }
    MESSAGE(windows << " CPU windows compared against every strategy");
    CHECK(windows > 100);  // equality of empty sets proves nothing
}

TEST_CASE("exact mode: every strategy gives the CPU's raw windows for a WaldBoost-style running-sum model") {
    if (!test::have_cuda_device()) return;
    const auto dir = test::gpu_data_dir();
    if (!dir) return;
    const auto frames = test::load_frames(*dir);
    const auto face = test::load_lbp_model(*dir, "lbpcascade_frontalface.xml");
    if (frames.empty() || !face) return;
    const test::WaldboostLike wald = waldboost_like(*face, frames);
    REQUIRE(wald.cascade.stages.size() == face->weaks.size());
    const long long windows = check_parity(wald.cascade, frames, "waldboost-like");
    MESSAGE(windows << " CPU windows compared against every strategy");
    CHECK(windows > 100);

    // Most windows are rejected early: the first weak learner (the first compaction point) stops most of them.
    LbpGpuOptions o;
    o.compaction = Compaction::global_atomic;
    o.compaction_points = {1, 8, 64};
    o.rule.stride = 1;
    LbpGpuDetector d(wald.cascade, o);
    d.detect(frames[0].image.view());
    const auto& st = d.last_stats();
    REQUIRE(st.group_end_weak.size() >= 3);
    CHECK(st.group_end_weak[0] == 1);
    CHECK(st.group_end_weak[1] == 8);
    CHECK(st.survivors[0] < st.windows / 2);
    CHECK(st.survivors[1] < st.windows / 10);
}

TEST_CASE("exact mode: every strategy gives the CPU's raw windows when acceptance thresholds decide early") {
    if (!test::have_cuda_device()) return;
    const auto dir = test::gpu_data_dir();
    if (!dir) return;
    const auto frames = test::load_frames(*dir);
    const auto face = test::load_lbp_model(*dir, "lbpcascade_frontalface.xml");
    if (frames.empty() || !face) return;
    test::WaldboostLikeParams params;
    params.accept_share = 0.02;
    const test::WaldboostLike wald = waldboost_like(*face, frames, params);

    // Acceptance must change the outcome, or equality would not show that accepted windows are carried through
    // the later groups: without its acceptance thresholds the same model finds other windows.
    LbpCascade never_accepting = wald.cascade;
    for (Stage& stage : never_accepting.stages) stage.accept = std::numeric_limits<float>::infinity();
    const auto with = cpu_windows(wald.cascade, frames[0].image.view(), 1.1, 1);
    const auto without = cpu_windows(never_accepting, frames[0].image.view(), 1.1, 1);
    CHECK(!test::equal_windows(with, without));

    const long long windows = check_parity(wald.cascade, frames, "waldboost-like with acceptance");
    MESSAGE(windows << " CPU windows compared against every strategy");
    CHECK(windows > 100);
}

TEST_CASE("exact mode: every strategy gives the CPU's raw windows for the WaldBoost pedestrian models cascade-train wrote") {
    if (!test::have_cuda_device()) return;
    const auto dir = test::gpu_data_dir();
    if (!dir) return;
    const auto frames = test::load_frames(*dir);
    if (frames.empty()) return;
    long long windows = 0;
    for (const char* file : {"pedestrian_lbp_64x128.xml", "pedestrian_lbp_accept_64x128.xml"}) {
        auto c = test::load_lbp_model(*dir, file);
        REQUIRE(c);  // gpu-pack copies models/pedestrian_lbp*.xml
        c->final_svm.reset();  // the histogram SVM runs on the CPU only: its WaldBoost stages
        windows += check_parity(*c, frames, file);
    }
    MESSAGE(windows << " CPU windows compared against every strategy");
    CHECK(windows > 100);
}

TEST_CASE("a model ending in the LBP histogram SVM stage is refused in one line") {
    if (!test::have_cuda_device()) return;
    const auto dir = test::gpu_data_dir();
    if (!dir) return;
    auto model = test::load_lbp_model(*dir, "pedestrian_lbp_accept_64x128.xml");
    REQUIRE(model);
    LbpCascade c = *model;
    LbpHistogramSvm svm;
    svm.cells_x = (c.window.width - 16) / 8 + 1;
    svm.cells_y = (c.window.height - 16) / 8 + 1;
    svm.weights.assign(static_cast<std::size_t>(svm.cells_x * svm.cells_y * kLbpUniformBins), 0.f);
    c.final_svm = svm;
    CHECK_THROWS_WITH_AS(LbpGpuDetector(c, LbpGpuOptions{}),
                         "MODEL: the LBP histogram SVM stage runs on the CPU only (--backend cpu)", InputError);
}

TEST_CASE("stats: survivors shrink at each compaction point, timings and the automatic choice are reported") {
    if (!test::have_cuda_device()) return;
    const auto dir = test::gpu_data_dir();
    if (!dir) return;
    const auto frames = test::load_frames(*dir, 2);
    const auto face = test::load_lbp_model(*dir, "lbpcascade_frontalface.xml");
    if (frames.empty() || !face) return;
    LbpGpuOptions o;
    o.time_kernels = true;
    o.auto_frames = 2;
    LbpGpuDetector d(*face, o);
    for (int i = 0; i < 12; ++i) d.detect(frames[i % frames.size()].image.view());
    CHECK(d.chosen_compaction() != Compaction::automatic);
    const auto& st = d.last_stats();
    CHECK(st.strategy == d.chosen_compaction());
    CHECK(!st.kernels.empty());
    CHECK(st.gpu_ms > 0.f);
    REQUIRE(st.survivors.size() == st.group_end_stage.size());
    if (st.strategy != Compaction::none)
        for (std::size_t g = 1; g < st.survivors.size(); ++g) CHECK(st.survivors[g] <= st.survivors[g - 1]);
    CHECK(st.survivors.front() <= st.windows);
}

TEST_CASE("texture mode: grouped detections match the CPU's at the same scales (IoU >= 0.5, 80% both ways)") {
    if (!test::have_cuda_device()) return;
    const auto dir = test::gpu_data_dir();
    if (!dir) return;
    const auto frames = test::load_frames(*dir);
    const auto face = test::load_lbp_model(*dir, "lbpcascade_frontalface.xml");
    if (frames.empty() || !face) return;
    // The texture pyramid's levels are 2^(k/n) apart; the CPU runs at that factor so that only the pixels
    // (hardware bilinear and octave resampling vs INTER_LINEAR_EXACT) differ.
    const double factor = std::pow(2.0, 1.0 / gpu::texture_levels_per_octave(1.1));
    for (Compaction s : {Compaction::shared_atomic, Compaction::hybrid}) {
        LbpGpuOptions o;
        o.mode = PyramidMode::texture;
        o.compaction = s;
        o.pyramid.scale_factor = 1.1;
        o.rule.stride = 1;
        LbpGpuDetector d(*face, o);
        int cpu_groups = 0, gpu_groups = 0, cpu_matched = 0, gpu_matched = 0;
        long long cpu_raw = 0, gpu_raw = 0;
        for (const auto& f : frames) {
            const auto cpu = cpu_windows(*face, f.image.view(), factor, 1);
            const auto found = d.detect(f.image.view());
            std::vector<Rect> cpu_rects, gpu_rects;
            for (const auto& x : cpu) cpu_rects.push_back(x.rect);
            for (const auto& x : found) gpu_rects.push_back(x.rect);
            const auto cg = group_rectangles(cpu_rects, 3), gg = group_rectangles(gpu_rects, 3);
            cpu_groups += static_cast<int>(cg.size());
            gpu_groups += static_cast<int>(gg.size());
            cpu_matched += test::matched_by_iou(cg, gg);
            gpu_matched += test::matched_by_iou(gg, cg);
            cpu_raw += static_cast<long long>(cpu.size());
            gpu_raw += static_cast<long long>(found.size());
        }
        MESSAGE("texture mode (" << gpu::to_string(s) << "): raw windows GPU " << gpu_raw << " vs CPU " << cpu_raw
                                 << "; grouped: CPU " << cpu_matched << "/" << cpu_groups << " matched, GPU "
                                 << gpu_matched << "/" << gpu_groups << " matched");
        REQUIRE(cpu_groups >= 5);
        CHECK(cpu_matched >= 0.8 * cpu_groups);
        CHECK(gpu_matched >= 0.8 * gpu_groups);
        CHECK(gpu_raw >= cpu_raw / 2);
        CHECK(gpu_raw <= cpu_raw * 2);
    }
}

TEST_CASE("frames of changing sizes: buffers follow, results stay exact") {
    if (!test::have_cuda_device()) return;
    const auto dir = test::gpu_data_dir();
    if (!dir) return;
    const auto frames = test::load_frames(*dir);
    const auto face = test::load_lbp_model(*dir, "lbpcascade_frontalface.xml");
    if (frames.empty() || !face) return;
    LbpGpuOptions o;
    o.compaction = Compaction::prefix_sum;
    LbpGpuDetector d(*face, o);
    for (int round = 0; round < 2; ++round)
        for (const auto& f : frames) {
            INFO(f.label << " round " << round);
            const auto found = d.detect(f.image.view());
            const auto cpu = cpu_windows(*face, f.image.view(), 1.1, 0);
            CHECK_MESSAGE(test::equal_windows(found, cpu), test::difference(found, cpu));
        }
    // A frame smaller than the window: nothing to scan, no error.
    GrayImage tiny(10, 10);
    CHECK(d.detect(tiny.view()).empty());
}
