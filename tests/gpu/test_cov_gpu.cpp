// The GPU region covariance detector against the CPU reference (common/cov_cpu_detector.hpp) on real frames.
// Until cascade-train cov ships a model, the cascade is random (tests/support/cov_test_model.hpp: both mappings,
// bin tables, clipped regressions; each stage's threshold at the 30th percentile of its sums on the first frame),
// which exercises every step of the window evaluation: the comparison with the CPU is the check.
// Exact mode: for every compaction strategy and automatic, the raw windows and their scores EQUAL detect_windows'
// at strides 8 and 4 and scale steps 1.05 and 1.2 (first_scale 0.5: levels larger than the frame), and the
// survivors after each compaction point equal the CPU's count of windows that passed those stages.
// Every test prints "SKIP: no CUDA device" and returns where there is no GPU.
#include <doctest/doctest.h>

#include <algorithm>
#include <optional>

#include "common/cov_cpu_detector.hpp"
#include "common/error.hpp"
#include "gpu/cov_gpu_detector.hpp"
#include "tests/gpu/gpu_test_data.hpp"
#include "tests/gpu/scan_cases.hpp"
#include "tests/gpu/window_compare.hpp"
#include "tests/support/cov_test_model.hpp"

namespace {

using namespace cascade;
using gpu::Compaction;
using gpu::CovGpuDetector;
using gpu::CovGpuOptions;

using test::params_of;
using test::Scan;

CovGpuOptions options_of(const Scan& scan, Compaction compaction) {
    return test::options_of<CovGpuOptions>(scan, compaction);
}

struct CovCase {
    CovCascade model;
    std::vector<test::Frame> frames;
};

// A random 8-stage cascade calibrated on the first of up to `max_frames` frames, or nothing (SKIP printed). Eight
// stages of 4: CovGpuOptions' compaction points cut them into 7 groups (the detector's own options).
std::optional<CovCase> cov_case(std::size_t max_frames) {
    if (!test::have_cuda_device()) return std::nullopt;
    const auto dir = test::gpu_data_dir();
    if (!dir) return std::nullopt;
    auto frames = test::load_frames(*dir, max_frames);
    if (frames.empty()) return std::nullopt;
    CovCascade model = test::random_cov_cascade(17, 8, 4, frames.front().image.view());
    return CovCase{std::move(model), std::move(frames)};
}

}  // namespace

TEST_CASE("cov exact mode: every strategy gives the CPU's raw windows and stage survivors") {
    const auto c = cov_case(3);
    if (!c) return;
    std::vector<Compaction> strategies = gpu::concrete_compactions();
    strategies.push_back(Compaction::automatic);
    long long windows = 0, survivor_checks = 0;
    for (const Scan scan : {Scan{1.05, 8, 1.0}, Scan{1.2, 4, 0.5}}) {
        std::vector<CovGpuDetector> detectors;
        for (Compaction s : strategies) detectors.emplace_back(c->model, options_of(scan, s));
        for (const auto& f : c->frames) {
            ScanStats cpu_stats;
            auto cpu = detect_windows(c->model, f.image.view(), params_of(scan), &cpu_stats);
            std::sort(cpu.begin(), cpu.end(), test::by_rect_then_score);
            windows += static_cast<long long>(cpu.size());
            for (auto& d : detectors) {
                const auto found = d.detect(f.image.view());
                const auto& st = d.last_stats();
                INFO(f.label << ", factor " << scan.factor << ", stride " << scan.stride << ", strategy "
                             << gpu::to_string(st.strategy));
                CHECK_MESSAGE(test::equal_windows(found, cpu), test::difference(found, cpu));
                if (st.strategy == Compaction::none) continue;
                survivor_checks += test::check_survivors(st, cpu_stats);
            }
        }
    }
    MESSAGE(windows << " CPU windows compared against every strategy; " << survivor_checks << " survivor counts");
    CHECK(windows > 20);  // equality of empty sets proves nothing
}

// Groups of 2, 1, 3, 5, 9, 17 and 4 + 4 weak learners (a compaction after every stage but the last two): on a few
// frames' survivors each takes the lanes its stage length makes best (gpu/cascade_kernels.cuh lanes_for: 2, 1, 4,
// 8, 16, 32 and 4), and the first group runs on every window position as a list (gpu/cov_cascade_gpu.cu).
TEST_CASE("cov exact mode: groups of 1 to 17 weak learners, each with its lanes, give the CPU's windows") {
    const auto c = cov_case(2);
    if (!c) return;
    const std::vector<int> sizes = {2, 1, 3, 5, 9, 17, 4, 4};
    const CovCascade model = test::random_cov_cascade(23, sizes, c->frames.front().image.view());
    const Scan scan{1.05, 8, 1.0};
    std::vector<CovGpuDetector> detectors;
    for (Compaction s : gpu::concrete_compactions()) {
        CovGpuOptions o = options_of(scan, s);
        o.compaction_points.clear();
        int weaks = 0;
        for (std::size_t k = 0; k + 2 < sizes.size(); ++k) o.compaction_points.push_back(weaks += sizes[k]);
        detectors.emplace_back(model, o);
    }
    long long windows = 0;
    for (const auto& f : c->frames) {
        ScanStats cpu_stats;
        auto cpu = detect_windows(model, f.image.view(), params_of(scan), &cpu_stats);
        std::sort(cpu.begin(), cpu.end(), test::by_rect_then_score);
        windows += static_cast<long long>(cpu.size());
        for (auto& d : detectors) {
            const auto found = d.detect(f.image.view());
            INFO(f.label << ", strategy " << gpu::to_string(d.last_stats().strategy));
            CHECK_MESSAGE(test::equal_windows(found, cpu), test::difference(found, cpu));
            if (d.last_stats().strategy != Compaction::none) test::check_survivors(d.last_stats(), cpu_stats);
        }
    }
    MESSAGE(windows << " CPU windows compared, stages of 1 to 17 weak learners");
    CHECK(windows > 20);
}

TEST_CASE("cov GPU detector: strides off the 4-pixel grid are refused in one line") {
    const auto c = cov_case(1);
    if (!c) return;
    for (int stride : {0, 6}) {
        CovGpuOptions o;
        o.rule.stride = stride;
        CHECK_THROWS_WITH_AS(CovGpuDetector(c->model, o), doctest::Contains("grid of 4 pixels"), InputError);
    }
}
