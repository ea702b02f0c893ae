// The GPU template matcher against the CPU reference (match/score_map.hpp) on real frames from tools/gpu-pack:
// the score maps of all six TM_* modes EQUAL the CPU's bit for bit (exact integer sums, the same finishing
// code compiled without FMA contraction), grey and colour (three real frames as the B, G, R planes), templates
// of 16x16, 23x31 and 64x48 cut from the frames, at image sizes that leave partial blocks at the borders, by the
// direct kernel; by the FFT path (16x16 to 128x128, image sizes cuFFT must pad) and the automatic choice; the
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

// Every mode, grey and colour, of the template cut at (templ_x, templ_y) from a region of the frames: the GPU
// map (by `path`) equals the CPU reference's bit for bit.
void check_maps(const std::vector<test::Frame>& frames, const Shape& s, gpu::MatchPath path) {
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
            gpu::TemplateMatcherGpu matcher(templ, method, path);
            const auto gpu = matcher.score_map(image);
            INFO("template ", s.templ_w, "x", s.templ_h, ", channels ", channels, ", mode ", m, ", path ",
                 static_cast<int>(matcher.path()));
            CHECK(matcher.path() != gpu::MatchPath::automatic);
            CHECK((path == gpu::MatchPath::automatic || matcher.path() == path));
            REQUIRE(gpu.width == cpu.width);
            REQUIRE(gpu.height == cpu.height);
            std::size_t differ = 0;
            for (std::size_t i = 0; i < cpu.scores.size(); ++i)
                differ += std::memcmp(&cpu.scores[i], &gpu.scores[i], sizeof(float)) != 0;
            CHECK(differ == 0);
        }
}

}  // namespace

TEST_CASE("GPU score maps equal the CPU reference's for the six modes, grey and colour, on real frames") {
    if (!test::have_cuda_device()) return;
    const auto dir = test::gpu_data_dir();
    if (!dir) return;
    const auto frames = test::load_frames(*dir, 3);
    REQUIRE(frames.size() == 3);
    const Shape shapes[] = {{203, 141, 50, 40, 16, 16}, {190, 150, 100, 20, 23, 31}, {161, 133, 60, 70, 64, 48}};
    for (const Shape& s : shapes) check_maps(frames, s, gpu::MatchPath::direct);
}

// The FFT path: cuFFT in double, the correlation rounded to its integer, so the same bits as the CPU while the
// transform's rounding stays under 0.5. Image sizes with a prime factor over 7 (padded to 2-3-5-7 sizes).
TEST_CASE("GPU score maps by the FFT path, and the automatic choice, equal the CPU reference's") {
    if (!test::have_cuda_device()) return;
    const auto dir = test::gpu_data_dir();
    if (!dir) return;
    const auto frames = test::load_frames(*dir, 3);
    REQUIRE(frames.size() == 3);
    const Shape shapes[] = {{301, 211, 40, 30, 128, 128}, {233, 190, 70, 60, 57, 41}, {203, 141, 50, 40, 16, 16}};
    for (const Shape& s : shapes) check_maps(frames, s, gpu::MatchPath::fft);
    check_maps(frames, shapes[0], gpu::MatchPath::automatic);
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
