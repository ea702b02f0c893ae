// The GPU Haar detector against the CPU reference (common/haar_cpu_detector.hpp, itself equal to OpenCV's
// CascadeClassifier: tests/common/test_opencv_parity.cpp) on real frames, with OpenCV's Haar cascades packed by
// tools/gpu-pack: stumps (frontalface_default), trees (frontalface_alt2), tilted features (fullbody,
// eye_tree_eyeglasses). For every compaction strategy and auto the raw windows and their scores EQUAL
// detect_windows', with OpenCV's scan rule and a fixed stride; with OpenCV's rule the strategies that drop the
// windows OpenCV's scan never visits after the first group (gpu/cascade_target.hpp drops_unvisited_early) count
// from there on exactly the CPU's windows that passed each group's stages.
// Every test prints "SKIP: no CUDA device" and returns where there is no GPU.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "common/error.hpp"
#include "common/haar_cpu_detector.hpp"
#include "gpu/cascade_target.hpp"
#include "gpu/haar_cascade_gpu.hpp"
#include "gpu/haar_gpu_detector.hpp"
#include "tests/gpu/gpu_test_data.hpp"
#include "tests/gpu/scan_cases.hpp"
#include "tests/gpu/window_compare.hpp"

namespace {

using namespace cascade;
using gpu::Compaction;
using gpu::HaarGpuDetector;
using gpu::HaarGpuOptions;

using test::params_of;
using test::Scan;

HaarGpuOptions options_of(const Scan& scan, Compaction compaction) {
    return test::options_of<HaarGpuOptions>(scan, compaction);
}

}  // namespace

TEST_CASE("exact: every strategy gives the CPU's raw windows for OpenCV's Haar cascades") {
    if (!test::have_cuda_device()) return;
    const auto dir = test::gpu_data_dir();
    if (!dir) return;
    const auto frames = test::load_frames(*dir, 3);
    if (frames.empty()) return;
    std::vector<Compaction> strategies = gpu::concrete_compactions();
    strategies.push_back(Compaction::automatic);
    long long windows = 0, survivor_checks = 0;
    for (const char* file : {"haarcascade_frontalface_default.xml", "haarcascade_frontalface_alt2.xml",
                             "haarcascade_fullbody.xml", "haarcascade_eye_tree_eyeglasses.xml"}) {
        const auto model = test::load_haar_model(*dir, file);
        if (!model) return;
        for (const Scan scan : {Scan{1.1, 0}, Scan{1.2, 2}}) {
            std::vector<HaarGpuDetector> detectors;
            for (Compaction s : strategies) detectors.emplace_back(*model, options_of(scan, s));
            for (const auto& f : frames) {
                ScanStats visited;  // OpenCV's rule: the windows its scan visits
                auto cpu = detect_windows(*model, f.image.view(), params_of(scan), &visited);
                std::sort(cpu.begin(), cpu.end(), test::by_rect_then_score);
                windows += static_cast<long long>(cpu.size());
                for (auto& d : detectors) {
                    const auto found = d.detect(f.image.view());
                    INFO(file << " on " << f.label << ", factor " << scan.factor << ", stride " << scan.stride
                              << ", strategy " << gpu::to_string(d.last_stats().strategy));
                    CHECK_MESSAGE(test::equal_windows(found, cpu), test::difference(found, cpu));
                    const gpu::GpuStats& stats = d.last_stats();
                    if (scan.stride != 0 || !gpu::drops_unvisited_early(stats.strategy, stats.survivors.size()))
                        continue;
                    for (std::size_t g = 1; g < stats.survivors.size(); ++g, ++survivor_checks)
                        CHECK(stats.survivors[g] == test::passed_stages(visited, stats.group_end_stage[g]));
                }
            }
        }
    }
    MESSAGE(windows << " CPU windows compared against every strategy; " << survivor_checks
                    << " survivor counts of OpenCV's scan");
    CHECK(windows > 100);  // equality of empty sets proves nothing
    CHECK(survivor_checks > 0);
}

TEST_CASE("constant memory takes the most whole stages whose trees, nodes and leaves fit") {
    const auto dir = test::gpu_data_dir();
    if (!dir) return;
    for (const char* file : {"haarcascade_frontalface_default.xml", "haarcascade_frontalface_alt2.xml",
                             "haarcascade_fullbody.xml", "haarcascade_eye_tree_eyeglasses.xml"}) {
        const auto model = test::load_haar_model(*dir, file);
        if (!model) return;
        const gpu::HaarConstantPrefix prefix = gpu::haar_constant_prefix(*model);
        // What stages [0, n) need: their trees, and the nodes and leaves those trees reach.
        const auto needs = [&](int n) {
            gpu::HaarConstantPrefix need{n, 0, 0, 0};
            for (int s = 0; s < n; ++s) need.trees = model->stages[static_cast<std::size_t>(s)].first +
                                                     model->stages[static_cast<std::size_t>(s)].count;
            for (int t = 0; t < need.trees; ++t) {
                const HaarTree& tree = model->weaks[static_cast<std::size_t>(t)];
                need.nodes = std::max(need.nodes, tree.first_node + tree.node_count);
                need.leaves = std::max(need.leaves, tree.first_leaf + tree.node_count + 1);
            }
            return need;
        };
        const auto fits = [](const gpu::HaarConstantPrefix& p) {
            return p.stages <= gpu::kHaarConstantStages && p.trees <= gpu::kHaarConstantTrees &&
                   p.nodes <= gpu::kHaarConstantNodes && p.leaves <= gpu::kHaarConstantLeaves;
        };
        INFO(std::string(file) << ": " << prefix.stages << " stages, " << prefix.trees << " trees");
        CHECK(prefix.stages >= 3);  // the default compaction points' groups 0-2 of these cascades read it
        const gpu::HaarConstantPrefix need = needs(prefix.stages);
        CHECK(fits(need));
        CHECK(prefix.trees == need.trees);
        CHECK(prefix.nodes == need.nodes);
        CHECK(prefix.leaves == need.leaves);
        if (prefix.stages < static_cast<int>(model->stages.size())) CHECK_FALSE(fits(needs(prefix.stages + 1)));
    }
}

TEST_CASE("texture mode is refused for Haar cascades") {
    if (!test::have_cuda_device()) return;
    const auto dir = test::gpu_data_dir();
    if (!dir) return;
    const auto model = test::load_haar_model(*dir, "haarcascade_frontalface_alt2.xml");
    if (!model) return;
    HaarGpuOptions o;
    o.mode = gpu::PyramidMode::texture;
    CHECK_THROWS_AS(HaarGpuDetector(*model, o), InputError);
}
