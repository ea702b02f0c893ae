// The GPU FOAGDD detector (gpu/foagdd_gpu.hpp) against the CPU reference (common/foagdd_cpu.hpp) on real frames
// from tools/gpu-pack: the same corners at the same pixels, and measures EQUAL bit for bit (the same float
// responses summed with fmaf in the same order, the same double tensor and elimination, no FMA contraction), on
// whole frames and on crops whose sizes leave partial blocks in every kernel; and the same detector object used
// across frame sizes. Prints "SKIP: ..." and returns where there is no GPU or no frames.
#include <doctest/doctest.h>

#include <cstring>
#include <sstream>

#include "gpu/foagdd_gpu.hpp"
#include "tests/gpu/gpu_test_data.hpp"

namespace {

using namespace cascade;

GrayView crop(const GrayImage& image, int x, int y, int w, int h) {
    return {image.pixels.data() + static_cast<std::size_t>(y) * image.width + x, w, h, image.width};
}

// The first difference between the two lists, or "" when they are equal (measures compared bit for bit).
std::string difference(const std::vector<Keypoint>& cpu, const std::vector<Keypoint>& gpu) {
    std::ostringstream out;
    for (std::size_t i = 0; i < std::max(cpu.size(), gpu.size()); ++i) {
        if (i >= cpu.size() || i >= gpu.size()) {
            out << "CPU " << cpu.size() << " points, GPU " << gpu.size();
            break;
        }
        const Keypoint &a = cpu[i], &b = gpu[i];
        if (a.x != b.x || a.y != b.y || std::memcmp(&a.measure, &b.measure, sizeof(double)) != 0) {
            out.precision(17);
            out << "point " << i << ": CPU (" << a.x << "," << a.y << ") " << a.measure << ", GPU (" << b.x << ","
                << b.y << ") " << b.measure;
            break;
        }
    }
    return out.str();
}

}  // namespace

TEST_CASE("GPU FOAGDD corners equal the CPU reference's on real frames, whole and cropped") {
    if (!test::have_cuda_device()) return;
    const auto dir = test::gpu_data_dir();
    if (!dir) return;
    const auto frames = test::load_frames(*dir, 4);
    REQUIRE(frames.size() >= 2);
    gpu::FoagddGpu detector;
    std::size_t total = 0;
    for (const test::Frame& frame : frames) {
        const GrayImage& image = frame.image;
        const GrayView views[] = {image.view(), crop(image, 3, 5, image.width - 41, image.height - 23),
                                  crop(image, image.width / 3, image.height / 4, 97, 61),
                                  crop(image, 10, 10, kFoagddMinSide, kFoagddMinSide + 3)};
        for (const GrayView& view : views) {
            const auto cpu = foagdd_keypoints(view);
            const auto gpu = detector.detect(view);
            INFO(frame.label, " ", view.width, "x", view.height);
            CHECK(difference(cpu, gpu) == "");
            total += cpu.size();
        }
    }
    CHECK(total > 100);  // a comparison over real corners, not over empty lists
}

TEST_CASE("GPU FOAGDD: a threshold of 0 keeps every 5x5 maximum that passes, as on the CPU") {
    if (!test::have_cuda_device()) return;
    const auto dir = test::gpu_data_dir();
    if (!dir) return;
    const auto frames = test::load_frames(*dir, 1);
    REQUIRE(!frames.empty());
    const GrayView view = crop(frames[0].image, 0, 0, 200, 150);
    gpu::FoagddGpu detector(0.0);
    const auto cpu = foagdd_keypoints(view, 0.0);
    CHECK(difference(cpu, detector.detect(view)) == "");
    CHECK(cpu.size() > foagdd_keypoints(view).size());
}
