// The GPU template matcher against the CPU reference (match/score_map.hpp) on real frames from tools/gpu-pack:
// the score maps of all six TM_* modes EQUAL the CPU's bit for bit (exact integer sums, the same finishing
// code compiled without FMA contraction), grey and colour (three real frames as the B, G, R planes), templates
// of 16x16, 23x31 and 64x48 cut from the frames, at image sizes that leave partial blocks at the borders; the
// exact matches equal the CPU's on a frame with copies of a patch pasted in.
// Every test prints "SKIP: ..." and returns where there is no GPU or no frames.
#include <doctest/doctest.h>

#include <cstring>

#include "gpu/template_match_gpu.hpp"
#include "match/score_map.hpp"
#include "tests/gpu/frame_planes.hpp"
#include "tests/gpu/gpu_test_data.hpp"

namespace {

using namespace cascade;

struct Shape {
    int image_w, image_h, templ_x, templ_y, templ_w, templ_h;
};

}  // namespace

TEST_CASE("GPU score maps equal the CPU reference's for the six modes, grey and colour, on real frames") {
    if (!test::have_cuda_device()) return;
    const auto dir = test::gpu_data_dir();
    if (!dir) return;
    const auto frames = test::load_frames(*dir, 3);
    REQUIRE(frames.size() == 3);
    const Shape shapes[] = {{203, 141, 50, 40, 16, 16}, {190, 150, 100, 20, 23, 31}, {161, 133, 60, 70, 64, 48}};
    for (const Shape& s : shapes)
        for (const int channels : {1, 3})
            for (int m = 0; m < 6; ++m) {
                const auto method = static_cast<MatchMethod>(m);
                const MatchPlanes image = test::frame_planes(frames, channels, 120, 90, s.image_w, s.image_h);
                MatchPlanes templ = image;
                for (int c = 0; c < channels; ++c) {
                    templ.planes[c].data += s.templ_y * templ.planes[c].stride + s.templ_x;
                    templ.planes[c].width = s.templ_w;
                    templ.planes[c].height = s.templ_h;
                }
                const auto cpu = match::score_map(image, templ, method);
                gpu::TemplateMatcherGpu matcher(templ, method);
                const auto gpu = matcher.score_map(image);
                INFO("template ", s.templ_w, "x", s.templ_h, ", channels ", channels, ", mode ", m);
                REQUIRE(gpu.width == cpu.width);
                REQUIRE(gpu.height == cpu.height);
                std::size_t differ = 0;
                for (std::size_t i = 0; i < cpu.scores.size(); ++i)
                    differ += std::memcmp(&cpu.scores[i], &gpu.scores[i], sizeof(float)) != 0;
                CHECK(differ == 0);
            }
}

TEST_CASE("GPU exact matches equal the CPU's: a patch and its pasted copies") {
    if (!test::have_cuda_device()) return;
    const auto dir = test::gpu_data_dir();
    if (!dir) return;
    auto frames = test::load_frames(*dir, 1);
    REQUIRE(frames.size() == 1);
    GrayImage& f = frames[0].image;
    const int w = 20, h = 12, sx = 200, sy = 150;
    for (const auto& [x, y] : {std::pair{30, 40}, std::pair{301, 17}, std::pair{250, 200}})
        for (int r = 0; r < h; ++r)
            std::memmove(f.row(y + r) + x, f.row(sy + r) + sx, w);
    MatchPlanes image, templ;
    image.channels = templ.channels = 1;
    image.planes[0] = f.view();
    templ.planes[0] = {f.pixels.data() + static_cast<std::size_t>(sy) * f.width + sx, w, h, f.width};
    const auto cpu = match::exact_matches(image, templ);
    gpu::TemplateMatcherGpu matcher(templ, MatchMethod::sqdiff);
    const auto gpu = matcher.exact_matches(image);
    REQUIRE(cpu.size() >= 4);
    REQUIRE(gpu.size() == cpu.size());
    for (std::size_t i = 0; i < cpu.size(); ++i) {
        CHECK(gpu[i].x == cpu[i].x);
        CHECK(gpu[i].y == cpu[i].y);
    }
}
