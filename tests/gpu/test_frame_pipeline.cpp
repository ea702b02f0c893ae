// Several frames in flight (gpu/frame_pipeline.hpp), on real frames: whatever the number of frames in flight and
// of detectors per device (--devices 0,0: two on one GPU), every take() gives the next submitted frame's windows,
// equal to the CPU reference's for that frame (exact pyramid), for an LBP and a HoG model; a failure on a slot
// stops the pipeline and reaches take(); cascade-detect's GPU backend spreads its frames the same way and names a
// device index the machine lacks.
#include <doctest/doctest.h>

#include <algorithm>

#include "common/error.hpp"
#include "common/hog_cpu_detector.hpp"
#include "common/lbp_cpu_detector.hpp"
#include "detect/backend.hpp"
#include "gpu/frame_pipeline.hpp"
#include "gpu/hog_gpu_detector.hpp"
#include "gpu/lbp_gpu_detector.hpp"
#include "tests/gpu/gpu_test_data.hpp"
#include "tests/gpu/window_compare.hpp"

using namespace cascade;

namespace {

template <class Cascade>
std::vector<std::vector<Detection>> cpu_windows(const Cascade& cascade, const std::vector<test::Frame>& frames,
                                                const ScanParams& params) {
    std::vector<std::vector<Detection>> out;
    for (const auto& f : frames) {
        out.push_back(detect_windows(cascade, f.image.view(), params));
        std::sort(out.back().begin(), out.back().end(), test::by_rect_then_score);
    }
    return out;
}

// Three passes over the frames, the pipeline kept full: each take() must be the next frame's CPU windows.
// Returns the number of windows compared.
long long check_in_order(gpu::FramePipeline& pipeline, const std::vector<test::Frame>& frames,
                         const std::vector<std::vector<Detection>>& expected, const std::string& what) {
    const std::size_t total = 3 * frames.size();
    std::size_t submitted = 0, taken = 0;
    long long windows = 0;
    while (taken < total) {
        while (submitted < total && pipeline.in_flight() < pipeline.capacity())
            pipeline.submit(frames[submitted++ % frames.size()].image.view());
        const std::vector<Detection> found = pipeline.take();
        const std::size_t i = taken++ % frames.size();
        INFO(what << ", frame " << frames[i].label << " (take " << taken << ")");
        CHECK_MESSAGE(test::equal_windows(found, expected[i]), test::difference(found, expected[i]));
        windows += static_cast<long long>(expected[i].size());
    }
    CHECK(pipeline.in_flight() == 0);
    return windows;
}

// Every setup (devices, frames in flight) over the frames; returns the number of windows compared.
template <class GpuDetector, class Cascade, class Options>
long long check_setups(const Cascade& cascade, const Options& options, const std::vector<test::Frame>& frames,
                       const std::string& family) {
    struct Setup {
        std::vector<int> devices;
        int in_flight;
    };
    const Setup setups[] = {{{0}, 1}, {{0}, 4}, {{0, 0}, 3}};
    const auto expected = cpu_windows(cascade, frames, {options.pyramid, options.rule});
    long long windows = 0;
    for (const Setup& s : setups) {
        gpu::FramePipeline pipeline([&] { return std::make_unique<GpuDetector>(cascade, options); }, s.devices,
                                    s.in_flight);
        CHECK(pipeline.capacity() == static_cast<int>(s.devices.size()) * s.in_flight);
        const std::string what = family + ", " + std::to_string(s.devices.size()) + " detector(s) on device 0, " +
                                 std::to_string(s.in_flight) + " in flight";
        windows += check_in_order(pipeline, frames, expected, what);
    }
    return windows;
}

}  // namespace

TEST_CASE("frames in flight: LBP windows in input order, equal to the CPU reference, on one or two detectors") {
    if (!test::have_cuda_device()) return;
    const auto dir = test::gpu_data_dir();
    if (!dir) return;
    const auto frames = test::load_frames(*dir, 6);
    const auto face = test::load_lbp_model(*dir, "lbpcascade_frontalface.xml");
    if (frames.empty() || !face) return;
    gpu::LbpGpuOptions options;
    options.rule.stride = 1;
    // The frames have faces: the comparison is not of empty lists.
    CHECK(check_setups<gpu::LbpGpuDetector>(*face, options, frames, "LBP") > 0);
}

TEST_CASE("frames in flight: HoG windows in input order with OpenCV's scan rule, equal to the CPU reference") {
    if (!test::have_cuda_device()) return;
    const auto dir = test::gpu_data_dir();
    if (!dir) return;
    const auto frames = test::load_frames(*dir, 4);
    const auto people = test::load_hog_model(*dir, "pedestrian_hog.xml");
    if (frames.empty() || !people) return;
    gpu::HogGpuOptions options;
    options.rule.stride = 0;
    CHECK(check_setups<gpu::HogGpuDetector>(*people, options, frames, "HoG") > 0);
}

TEST_CASE("frames in flight: a failing frame stops the pipeline and every later take() reports it") {
    if (!test::have_cuda_device()) return;
    const auto dir = test::gpu_data_dir();
    if (!dir) return;
    const auto frames = test::load_frames(*dir, 2);
    const auto face = test::load_lbp_model(*dir, "lbpcascade_frontalface.xml");
    if (frames.empty() || !face) return;
    gpu::FramePipeline pipeline([&] { return std::make_unique<gpu::LbpGpuDetector>(*face, gpu::LbpGpuOptions{}); },
                                {0, 0}, 2);
    pipeline.submit(frames[0].image.view());
    CHECK_NOTHROW(pipeline.take());
    pipeline.submit(GrayView{});  // no pixels: the detector refuses it
    pipeline.submit(frames[0].image.view());
    CHECK_THROWS_WITH_AS(pipeline.take(), "GPU detector: empty frame", InputError);
    CHECK_THROWS_AS(pipeline.take(), InputError);
    pipeline.drain();
    CHECK(pipeline.in_flight() == 0);
}

TEST_CASE("cascade-detect's GPU backend: frames in flight on --devices 0,0, and a device index the machine lacks") {
    if (!test::have_cuda_device()) return;
    const auto dir = test::gpu_data_dir();
    if (!dir) return;
    const auto frames = test::load_frames(*dir, 4);
    const auto face = test::load_lbp_model(*dir, "lbpcascade_frontalface.xml");
    if (frames.empty() || !face) return;
    const PackedModel model = compile_model({*face, "lbpcascade_frontalface.xml"});
    detect::GpuSettings settings;
    settings.devices = {false, {0, 0}};
    settings.frames_in_flight = 2;
    const auto backend = detect::make_backend("gpu", model, ScanParams{}, settings);
    REQUIRE(backend->capacity() == 4);
    const auto expected = cpu_windows(*face, frames, ScanParams{});
    for (const auto& f : frames) backend->submit(f.image.view());
    for (std::size_t i = 0; i < frames.size(); ++i) {
        std::vector<Detection> found = backend->take();
        std::sort(found.begin(), found.end(), test::by_rect_then_score);
        INFO("frame " << frames[i].label);
        CHECK_MESSAGE(test::equal_windows(found, expected[i]), test::difference(found, expected[i]));
    }
    const std::string n = std::to_string(gpu::gpu_count());
    settings.devices = {false, {0, gpu::gpu_count()}};
    const std::string message = "--devices: there is no CUDA device " + n + " (this machine has " + n + ": 0.." +
                                std::to_string(gpu::gpu_count() - 1) + ")";
    CHECK_THROWS_WITH_AS(detect::make_backend("gpu", model, ScanParams{}, settings), message.c_str(), InputError);
}
