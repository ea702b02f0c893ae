// The GPU HoG detector against the CPU reference (common/hog_cpu_detector.hpp) on real frames, with the
// project's pedestrian models (models/pedestrian_hog.xml, and pedestrian_hog_dalal_triggs.xml, whose last stage
// reads Dalal-Triggs blocks from the level images' gradients, plain or gamma-corrected, and with LBP-histogram
// learners added to that stage, which read the level images' uniform-LBP bins; packed by tools/gpu-pack).
// Exact mode: for every compaction strategy the raw windows and their scores EQUAL detect_windows', at stride 8
// and with OpenCV's scan rule, on frames of several sizes, including upsampled levels (first_scale 0.5); with
// a fixed stride the survivors after each compaction point also equal the CPU's count of windows that passed
// those stages; likewise for a running-sum variant of the model with acceptance thresholds. Texture mode: close
// to the CPU within a stated tolerance.
// Every test prints "SKIP: no CUDA device" and returns where there is no GPU.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>

#include "common/error.hpp"
#include "common/hog_cpu_detector.hpp"
#include "gpu/hog_gpu_detector.hpp"
#include "tests/gpu/gpu_test_data.hpp"
#include "tests/gpu/scan_cases.hpp"
#include "tests/gpu/window_compare.hpp"

namespace {

using namespace cascade;
using gpu::Compaction;
using gpu::HogGpuDetector;
using gpu::HogGpuOptions;
using gpu::PyramidMode;

constexpr const char* kModel = "pedestrian_hog.xml";
// Boosted stages and a last SVM stage of Dalal-Triggs blocks (common/dalal_triggs_descriptor.hpp).
constexpr const char* kDalalTriggsModel = "pedestrian_hog_dalal_triggs.xml";

using test::params_of;
using test::Scan;

HogGpuOptions options_of(const Scan& scan, Compaction compaction) {
    return test::options_of<HogGpuOptions>(scan, compaction);
}

std::vector<Detection> cpu_windows(const HogCascade& c, const GrayView& frame, const Scan& scan,
                                   ScanStats* stats = nullptr) {
    auto out = detect_windows(c, frame, params_of(scan), stats);
    std::sort(out.begin(), out.end(), test::by_rect_then_score);
    return out;
}

// The pedestrian model and up to `max_frames` test frames (0: all), or nothing, with a printed SKIP, where the GPU,
// the data, the frames or the model are absent.
struct PedestrianCase {
    HogCascade model;
    std::vector<test::Frame> frames;
};
std::optional<PedestrianCase> pedestrian_case(std::size_t max_frames = 0, const char* model_file = kModel) {
    if (!test::have_cuda_device()) return std::nullopt;
    const auto dir = test::gpu_data_dir();
    if (!dir) return std::nullopt;
    auto frames = test::load_frames(*dir, max_frames);
    const auto model = test::load_hog_model(*dir, model_file);
    if (frames.empty() || !model) return std::nullopt;
    return PedestrianCase{*model, std::move(frames)};
}

std::string describe(const Scan& s) {
    return "factor " + std::to_string(s.factor) + ", stride " + std::to_string(s.stride) + ", first scale " +
           std::to_string(s.first_scale);
}

// Exact mode, every strategy and the automatic choice: the GPU's raw windows equal the CPU's on every frame at
// every scan. Returns the number of CPU windows compared.
long long compare_raw_windows(const HogCascade& model, const std::vector<test::Frame>& frames,
                              const std::vector<Scan>& scans) {
    std::vector<Compaction> strategies = gpu::concrete_compactions();
    strategies.push_back(Compaction::automatic);
    long long windows = 0;
    for (const Scan& scan : scans) {
        std::vector<HogGpuDetector> detectors;
        for (Compaction s : strategies) detectors.emplace_back(model, options_of(scan, s));
        for (const auto& f : frames) {
            const auto cpu = cpu_windows(model, f.image.view(), scan);
            windows += static_cast<long long>(cpu.size());
            for (auto& d : detectors) {
                const auto found = d.detect(f.image.view());
                INFO(f.label << ", " << describe(scan) << ", strategy " << gpu::to_string(d.last_stats().strategy));
                CHECK_MESSAGE(test::equal_windows(found, cpu), test::difference(found, cpu));
            }
        }
    }
    return windows;
}

}  // namespace

TEST_CASE("exact mode: every strategy gives the CPU's raw windows and stage survivors for the pedestrian model") {
    const auto c = pedestrian_case();
    if (!c) return;
    const auto& frames = c->frames;
    const auto* model = &c->model;
    std::vector<Compaction> strategies = gpu::concrete_compactions();
    strategies.push_back(Compaction::automatic);
    long long windows = 0, survivor_checks = 0;
    // The thesis's scale steps at stride 8, and OpenCV's rule; first_scale 0.5 adds levels larger than the frame.
    for (const Scan scan : {Scan{1.05, 8, 1.0}, Scan{1.2, 8, 0.5}, Scan{1.1, 0, 1.0}, Scan{1.2, 0, 0.5}}) {
        std::vector<HogGpuDetector> detectors;
        for (Compaction s : strategies) detectors.emplace_back(*model, options_of(scan, s));
        for (const auto& f : frames) {
            ScanStats cpu_stats;
            const auto cpu = cpu_windows(*model, f.image.view(), scan, &cpu_stats);
            windows += static_cast<long long>(cpu.size());
            for (auto& d : detectors) {
                const auto found = d.detect(f.image.view());
                const auto& st = d.last_stats();
                INFO(f.label << ", " << describe(scan) << ", strategy " << gpu::to_string(st.strategy) << " ("
                             << gpu::to_string(d.options().compaction) << ")");
                CHECK_MESSAGE(test::equal_windows(found, cpu), test::difference(found, cpu));
                if (scan.stride == 0 || st.strategy == Compaction::none) continue;
                survivor_checks += test::check_survivors(st, cpu_stats);
            }
        }
    }
    MESSAGE(windows << " CPU windows compared against every strategy; " << survivor_checks << " survivor counts");
    CHECK(windows > 100);  // equality of empty sets proves nothing
}

TEST_CASE("exact mode: a model with a Dalal-Triggs last stage gives the CPU's raw windows with every strategy") {
    const auto c = pedestrian_case(0, kDalalTriggsModel);
    if (!c) return;
    const long long windows = compare_raw_windows(c->model, c->frames, {Scan{1.2, 8, 1.0}, Scan{1.1, 0, 1.0}});
    MESSAGE(windows << " CPU windows of the Dalal-Triggs model compared against every strategy");
    CHECK(windows > 20);  // equality of empty sets proves nothing
}

TEST_CASE("exact mode: gamma-corrected Dalal-Triggs blocks give the CPU's raw windows and scores with every strategy") {
    auto c = pedestrian_case(0, kDalalTriggsModel);
    if (!c) return;
    // The same model reading its last stage from the gamma-corrected gradients (its weights were trained without
    // gamma: what is compared is the arithmetic), that stage's threshold lowered so that every window reaching
    // it is reported with its score.
    HogCascade& model = c->model;
    for (HogWeak& w : model.weaks)
        if (w.descriptor == kHogDescriptorDalalTriggs) w.descriptor = kHogDescriptorDalalTriggsGamma;
    model.stages.back().threshold = -1e30f;
    const long long windows = compare_raw_windows(model, c->frames, {Scan{1.2, 8, 1.0}, Scan{1.1, 0, 1.0}});
    MESSAGE(windows << " CPU windows of the gamma Dalal-Triggs model compared against every strategy");
    CHECK(windows > 20);  // equality of empty sets proves nothing
}

TEST_CASE("exact mode: LBP-histogram learners (HOG-LBP) give the CPU's raw windows and scores with every strategy") {
    auto c = pedestrian_case(0, kDalalTriggsModel);
    if (!c) return;
    // The Dalal-Triggs model's last stage with the uniform-LBP histograms of the window's 32 16x16 cells appended
    // (two learners a cell, bins 0-35 and 36-58, as cascade-train hog --final-lbp-histograms makes them), weights
    // drawn from a fixed sequence (the arithmetic is compared, not a trained model), the threshold lowered so that
    // every window reaching the stage is reported with its score.
    HogCascade& model = c->model;
    const float slope = model.weaks.back().slope;
    std::uint32_t state = 12345u;
    const auto next_weight = [&state] {
        state = state * 1664525u + 1013904223u;
        return static_cast<float>(static_cast<int>(state >> 8) % 2001 - 1000) * 1e-4f;
    };
    for (int y = 0; y + 16 <= model.window.height; y += 16)
        for (int x = 0; x + 16 <= model.window.width; x += 16)
            for (int first_bin : {0, 36}) {
                HogWeak w;
                w.block = {x, y, 16, 16};
                w.descriptor = kHogDescriptorLbpHistogram;
                w.first_bin = first_bin;
                for (int i = 0; i < lbp_learner_bins(first_bin); ++i) w.weights[i] = next_weight();
                w.num_cuts = 0;
                w.slope = slope;
                model.weaks.push_back(w);
            }
    model.stages.back().count = static_cast<int>(model.weaks.size()) - model.stages.back().first;
    model.stages.back().threshold = -1e30f;
    validate(model, "HOG-LBP test model");
    const long long windows = compare_raw_windows(model, c->frames, {Scan{1.2, 8, 1.0}, Scan{1.1, 0, 0.5}});
    MESSAGE(windows << " CPU windows of the HOG-LBP model compared against every strategy");
    CHECK(windows > 20);  // equality of empty sets proves nothing
}

TEST_CASE("stats: compaction points, survivors shrinking, kernel times and the automatic choice") {
    const auto c = pedestrian_case(2);
    if (!c) return;
    const auto& frames = c->frames;
    const auto* model = &c->model;
    HogGpuOptions o;
    o.time_kernels = true;
    o.auto_frames = 2;
    HogGpuDetector d(*model, o);
    for (int i = 0; i < 12; ++i) d.detect(frames[i % frames.size()].image.view());
    CHECK(d.chosen_compaction() != Compaction::automatic);
    const auto& st = d.last_stats();
    CHECK(st.strategy == d.chosen_compaction());
    CHECK(st.gpu_ms > 0.f);
    // The default points 3, 11, 30, 66, each rounded up to the end of its stage; a point inside the last stage
    // makes no group of its own (the shipped model's last stage is its 105-block SVM, holding 66).
    std::vector<int> expected;
    int end = 0;
    for (std::size_t s = 0; s + 1 < model->stages.size(); ++s) {
        const int before = end;
        end += model->stages[s].count;
        for (int p : {3, 11, 30, 66})
            if (p > before && p <= end) {
                expected.push_back(end);
                break;
            }
    }
    expected.push_back(static_cast<int>(model->weaks.size()));
    CHECK(expected.size() >= 3);
    CHECK(st.group_end_weak == expected);
    REQUIRE(st.survivors.size() == st.group_end_stage.size());
    if (st.strategy != Compaction::none)
        for (std::size_t g = 1; g < st.survivors.size(); ++g) CHECK(st.survivors[g] <= st.survivors[g - 1]);
    CHECK(st.survivors.front() < st.windows);
    std::vector<std::string> names;
    for (const auto& k : st.kernels) names.push_back(k.name);
    for (const char* kernel : {"resample", "gradient_integral_rows", "integral_columns"})
        CHECK_MESSAGE(std::find(names.begin(), names.end(), kernel) != names.end(), kernel);
}

TEST_CASE("texture mode: raw windows match the CPU's at the same scales (IoU >= 0.5, 80% both ways)") {
    const auto c = pedestrian_case();
    if (!c) return;
    const auto& frames = c->frames;
    const auto* model = &c->model;
    // Texture mode samples each level pixel by one hardware bilinear fetch (8-bit fractional weights) instead
    // of INTER_LINEAR_EXACT: a pixel may differ by a grey level, which moves some gradients across an
    // orientation bin boundary and some weak learners across their decision boundary. The levels are the
    // CPU's, so a window the CPU accepts should mostly be found at or next to the same place.
    const Scan scan{1.1, 4, 0.5};  // the thesis's dense stride: enough raw windows to measure a fraction
    for (Compaction s : {Compaction::shared_atomic, Compaction::prefix_sum}) {
        HogGpuOptions o = options_of(scan, s);
        o.mode = PyramidMode::texture;
        HogGpuDetector d(*model, o);
        long long cpu_raw = 0, gpu_raw = 0, cpu_matched = 0, gpu_matched = 0;
        for (const auto& f : frames) {
            const auto cpu = cpu_windows(*model, f.image.view(), scan);
            const auto found = d.detect(f.image.view());
            std::vector<Rect> cpu_rects, gpu_rects;
            for (const auto& x : cpu) cpu_rects.push_back(x.rect);
            for (const auto& x : found) gpu_rects.push_back(x.rect);
            cpu_matched += test::matched_by_iou(cpu_rects, gpu_rects);
            gpu_matched += test::matched_by_iou(gpu_rects, cpu_rects);
            cpu_raw += static_cast<long long>(cpu.size());
            gpu_raw += static_cast<long long>(found.size());
        }
        MESSAGE("texture mode (" << gpu::to_string(s) << "): raw windows GPU " << gpu_raw << " vs CPU " << cpu_raw
                                 << "; CPU " << cpu_matched << " matched, GPU " << gpu_matched << " matched");
        REQUIRE(cpu_raw >= 50);
        CHECK(5 * cpu_matched >= 4 * cpu_raw);  // 80%
        CHECK(5 * gpu_matched >= 4 * gpu_raw);
        CHECK(gpu_raw >= cpu_raw / 2);
        CHECK(gpu_raw <= cpu_raw * 2);
    }
}

TEST_CASE("frames of changing sizes: buffers follow, results stay exact") {
    const auto c = pedestrian_case();
    if (!c) return;
    const auto& frames = c->frames;
    const auto* model = &c->model;
    const Scan scan{1.1, 8, 0.5};
    HogGpuDetector d(*model, options_of(scan, Compaction::hybrid));
    for (int round = 0; round < 2; ++round)
        for (const auto& f : frames) {
            INFO(f.label << " round " << round);
            const auto found = d.detect(f.image.view());
            const auto cpu = cpu_windows(*model, f.image.view(), scan);
            CHECK_MESSAGE(test::equal_windows(found, cpu), test::difference(found, cpu));
        }
    // A frame smaller than the window: nothing to scan, no error.
    GrayImage tiny(20, 40);
    CHECK(d.detect(tiny.view()).empty());
}

// The pedestrian model as a running-sum cascade that accepts early: stage s rejects a running sum below the sum of
// the model's thresholds up to s (a looser cascade), and stages 2 .. last-1 accept one at least 4 + s/2 above
// that (on the test frames about a fifth of the accepted windows are accepted before the last stage).
HogCascade accepting_early(const HogCascade& model) {
    HogCascade c = model;
    c.policy = SumPolicy::running;
    float threshold = 0.f;
    for (std::size_t s = 0; s < c.stages.size(); ++s) {
        threshold += model.stages[s].threshold;
        c.stages[s].threshold = threshold;
        if (s >= 2 && s + 1 < c.stages.size()) c.stages[s].accept = threshold + 4.f + 0.5f * static_cast<float>(s);
    }
    return c;
}

TEST_CASE("exact mode: every strategy gives the CPU's raw windows when acceptance thresholds decide early") {
    const auto c = pedestrian_case();
    if (!c) return;
    const auto& frames = c->frames;
    const auto* model = &c->model;
    const HogCascade accepting = accepting_early(*model);
    validate(accepting, "accepting_early");
    // Acceptance must change the outcome, or equality would not show that accepted windows are carried through
    // the later groups: without its acceptance thresholds the same model finds other windows.
    HogCascade never_accepting = accepting;
    for (Stage& stage : never_accepting.stages) stage.accept = std::numeric_limits<float>::infinity();
    const Scan sparse{1.2, 8, 1.0};
    CHECK(!test::equal_windows(cpu_windows(accepting, frames[0].image.view(), sparse),
                               cpu_windows(never_accepting, frames[0].image.view(), sparse)));
    const long long windows = compare_raw_windows(accepting, frames, {sparse, Scan{1.1, 0, 1.0}});
    MESSAGE(windows << " CPU windows compared against every strategy");
    CHECK(windows > 100);
}

TEST_CASE("a model larger than the GPU's constant-memory tables is refused with an InputError") {
    const auto c = pedestrian_case(1);
    if (!c) return;
    const auto* model = &c->model;
    HogCascade large = *model;
    while (large.weaks.size() <= static_cast<std::size_t>(gpu::kMaxHogGpuWeaks)) large.weaks.push_back(model->weaks[0]);
    large.stages.back().count += static_cast<int>(large.weaks.size() - model->weaks.size());
    CHECK_THROWS_AS(HogGpuDetector(large, HogGpuOptions{}), InputError);
}
