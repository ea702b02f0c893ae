// Region covariance on the GPU against the CPU reference on real frames from tools/gpu-pack (grey frames; colour
// from three frames as B, G, R): the int64 integral images EQUAL the CPU's (every layout: grey and colour, basic
// and extended features), and every window's distance (Foerstner and JBLD, two window sizes, step 3) equals the
// CPU map's within 1e-6 relative (the same double code, compiled without FMA contraction; the device's log is
// within an ulp or two of the host's); best() finds the CPU maps' best window (match/peaks.hpp's rule), and a frame
// written into the matcher's pinned staging gives the same integrals and maps; more window sizes than one launch
// takes (32) give the same maps and best window. Prints "SKIP: ..." and returns without a GPU or frames.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>

#include "common/covariance_integrals.hpp"
#include "gpu/covariance_gpu.hpp"
#include "match/covariance_map.hpp"
#include "match/peaks.hpp"
#include "tests/gpu/frame_planes.hpp"
#include "tests/gpu/gpu_test_data.hpp"

namespace {

using namespace cascade;

GrayView sub_view(const GrayView& v, int x, int y, int w, int h) {
    return {v.data + static_cast<std::size_t>(y) * v.stride + x, w, h, v.stride};
}

// The covariance of the w x h window at (x, y) of the planes, as a template cut from them.
std::vector<double> target_of(const MatchPlanes& colour, const GrayView& grey, CovarianceLayout layout, int x, int y,
                              int w, int h) {
    MatchPlanes templ_colour = colour;
    for (int c = 0; c < layout.channels; ++c) templ_colour.planes[c] = sub_view(colour.planes[c], x, y, w, h);
    CovarianceIntegrals templ;
    build_covariance_integrals(templ_colour, sub_view(grey, x, y, w, h), layout, templ);
    return match::target_covariance(templ);
}

int differing(const ScoreMap& gpu, const ScoreMap& cpu) {
    int differ = 0;
    for (std::size_t i = 0; i < cpu.scores.size(); ++i) {
        const double a = gpu.scores[i], b = cpu.scores[i];
        differ += std::abs(a - b) > 1e-6 * std::max(1.0, std::abs(b));
    }
    return differ;
}

// The CPU maps' best window by cascade-match's rule (top 1, no threshold).
Detection cpu_best(const std::vector<ScoreMap>& maps, const std::vector<Size>& windows) {
    std::vector<Detection> peaks;
    for (std::size_t s = 0; s < maps.size(); ++s) {
        const auto p = match::find_peaks(maps[s], windows[s], MatchMethod::sqdiff, {});
        peaks.insert(peaks.end(), p.begin(), p.end());
    }
    return match::merge_peaks(peaks, MatchMethod::sqdiff, {}).front();
}

// Rows [top, top + rows) of the frame copied into staging planes at `host` (the matcher's layout).
void stage_rows(std::uint8_t* host, const MatchPlanes& colour, const GrayView& grey, int top, int rows) {
    const int w = grey.width, h = grey.height;
    for (int c = 0; c <= colour.channels; ++c) {
        const GrayView& source = c < colour.channels ? colour.planes[c] : grey;
        std::uint8_t* plane = host + static_cast<std::size_t>(c) * w * h;
        for (int y = top; y < top + rows; ++y) std::memcpy(plane + y * w, source.data + y * source.stride, w);
    }
}

// The frame copied into the matcher's staging planes, as views of them.
std::pair<MatchPlanes, GrayView> staged(gpu::CovarianceMatcherGpu& matcher, const MatchPlanes& colour,
                                        const GrayView& grey) {
    const int w = grey.width, h = grey.height;
    std::uint8_t* host = matcher.staging({w, h});
    stage_rows(host, colour, grey, 0, h);
    MatchPlanes planes = colour;
    for (int c = 0; c < colour.channels; ++c) planes.planes[c] = {host + static_cast<std::size_t>(c) * w * h, w, h, w};
    return {planes, GrayView{host + static_cast<std::size_t>(colour.channels) * w * h, w, h, w}};
}

}  // namespace

TEST_CASE("GPU covariance integral images equal the CPU's, window distances equal the CPU map's") {
    if (!test::have_cuda_device()) return;
    const auto dir = test::gpu_data_dir();
    if (!dir) return;
    const auto frames = test::load_frames(*dir, 4);
    REQUIRE(frames.size() == 4);
    // Region sizes: whole and partial tiles of the GPU's integral pass (256 columns x 32 rows).
    const Size sizes[] = {{301, 190}, {120, 70}, {440, 250}, {257, 96}};
    int next = 0;
    for (const CovarianceLayout layout : {CovarianceLayout{1, false}, CovarianceLayout{1, true},
                                          CovarianceLayout{3, false}, CovarianceLayout{3, true}}) {
        const int w = sizes[next].width, h = sizes[next].height;
        ++next;
        const MatchPlanes colour = test::frame_planes(frames, layout.channels, 100, 80, w, h);
        // Grey: the colour plane itself; colour: a fourth frame stands for the grey image.
        const GrayImage& fourth = frames[3].image;
        const GrayView grey = layout.channels == 1 ? colour.planes[0]
                                                   : GrayView{fourth.pixels.data() + 80 * fourth.width + 100, w, h,
                                                              fourth.width};
        CovarianceIntegrals cpu;
        build_covariance_integrals(colour, grey, layout, cpu);
        // The target: a 40x30 window of the same planes (at (50, 20) of the region).
        const std::vector<double> target = target_of(colour, grey, layout, 50, 20, 40, 30);
        for (const CovMetric metric : {CovMetric::forstner, CovMetric::jbld}) {
            gpu::CovarianceMatcherGpu matcher(layout, target, metric);
            const std::vector<Size> windows{{40, 30}, {64, 64}};
            const auto maps = matcher.search(colour, grey, windows, 3);
            INFO("channels ", layout.channels, (layout.extended ? " extended" : " basic"), ", metric ",
                 static_cast<int>(metric), ", ", w, "x", h);
            CHECK(matcher.integrals() == cpu.sums);
            std::vector<ScoreMap> expected;
            for (std::size_t s = 0; s < windows.size(); ++s) {
                expected.push_back(match::covariance_map(cpu, windows[s], target, metric, 3));
                REQUIRE(maps[s].width == expected[s].width);
                REQUIRE(maps[s].height == expected[s].height);
                CHECK(differing(maps[s], expected[s]) == 0);
            }
            const Detection best = cpu_best(expected, windows);
            const gpu::CovarianceBest found = matcher.best(colour, grey, windows, 3);
            const Size size = windows[static_cast<std::size_t>(found.window)];
            CHECK(found.x == best.rect.x);
            CHECK(found.y == best.rect.y);
            CHECK(size.width == best.rect.width);
            CHECK(size.height == best.rect.height);
            CHECK(std::abs(found.distance - best.score) <= 1e-6 * std::max(1.0f, std::abs(best.score)));
            const auto [staged_colour, staged_grey] = staged(matcher, colour, grey);
            const auto again = matcher.search(staged_colour, staged_grey, windows, 3);
            CHECK(matcher.integrals() == cpu.sums);
            for (std::size_t s = 0; s < windows.size(); ++s) CHECK(again[s].scores == maps[s].scores);
            // Staging cleared, then written by a fill strip by strip as the matcher uploads: the same results; the
            // strips cover every row once, in order.
            std::uint8_t* host = matcher.staging({w, h});
            std::memset(host, 0, static_cast<std::size_t>(w) * h * (layout.channels + 1));
            int next_row = 0, strips = 0;
            const StagingFill fill = [&](int top, int rows) {
                strips += top == next_row && rows > 0;
                next_row = top + rows;
                stage_rows(host, colour, grey, top, rows);
            };
            const auto filled = matcher.search(staged_colour, staged_grey, windows, 3, fill);
            CHECK(next_row == h);
            CHECK(strips > 1);
            for (std::size_t s = 0; s < windows.size(); ++s) CHECK(filled[s].scores == maps[s].scores);
            next_row = strips = 0;
            std::memset(host, 0, static_cast<std::size_t>(w) * h * (layout.channels + 1));
            const gpu::CovarianceBest filled_best = matcher.best(staged_colour, staged_grey, windows, 3, fill);
            CHECK(next_row == h);
            CHECK(filled_best.x == found.x);
            CHECK(filled_best.y == found.y);
            CHECK(filled_best.window == found.window);
            CHECK(filled_best.distance == found.distance);
        }
    }
}

TEST_CASE("GPU covariance with more window sizes than one launch takes: the CPU's maps and best window") {
    if (!test::have_cuda_device()) return;
    const auto dir = test::gpu_data_dir();
    if (!dir) return;
    const auto frames = test::load_frames(*dir, 3);
    REQUIRE(frames.size() == 3);
    const CovarianceLayout layout{3, false};
    const MatchPlanes colour = test::frame_planes(frames, 3, 40, 30, 200, 150);
    const GrayView grey = colour.planes[1];  // a real plane stands for the grey image
    CovarianceIntegrals cpu;
    build_covariance_integrals(colour, grey, layout, cpu);
    const std::vector<double> target = target_of(colour, grey, layout, 70, 50, 30, 30);
    std::vector<Size> windows;
    for (int side = 10; side < 80; side += 2) windows.push_back({side, side + 3});  // 35 sizes
    for (const CovMetric metric : {CovMetric::forstner, CovMetric::jbld}) {
        gpu::CovarianceMatcherGpu matcher(layout, target, metric);
        const auto maps = matcher.search(colour, grey, windows, 5);
        std::vector<ScoreMap> expected;
        for (std::size_t s = 0; s < windows.size(); ++s) {
            expected.push_back(match::covariance_map(cpu, windows[s], target, metric, 5));
            REQUIRE(maps[s].scores.size() == expected[s].scores.size());
            CHECK(differing(maps[s], expected[s]) == 0);
        }
        const Detection best = cpu_best(expected, windows);
        const gpu::CovarianceBest found = matcher.best(colour, grey, windows, 5);
        CHECK(found.x == best.rect.x);
        CHECK(found.y == best.rect.y);
        CHECK(windows[static_cast<std::size_t>(found.window)].width == best.rect.width);
    }
}
