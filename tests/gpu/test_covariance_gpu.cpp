// Region covariance on the GPU against the CPU reference on real frames from tools/gpu-pack (grey frames; colour
// from three frames as B, G, R): the int64 integral images EQUAL the CPU's (every layout: grey and colour, basic
// and extended features), and every window's distance (Foerstner and JBLD, two window sizes, step 3) equals the
// CPU map's within 1e-6 relative (the same double code, compiled without FMA contraction; the device's log is
// within an ulp or two of the host's). Prints "SKIP: ..." and returns without a GPU or frames.
#include <doctest/doctest.h>

#include <cmath>

#include "common/covariance_integrals.hpp"
#include "gpu/covariance_gpu.hpp"
#include "match/covariance_map.hpp"
#include "tests/gpu/frame_planes.hpp"
#include "tests/gpu/gpu_test_data.hpp"

namespace {

using namespace cascade;

GrayView sub_view(const GrayView& v, int x, int y, int w, int h) {
    return {v.data + static_cast<std::size_t>(y) * v.stride + x, w, h, v.stride};
}

}  // namespace

TEST_CASE("GPU covariance integral images equal the CPU's; window distances equal the CPU map's") {
    if (!test::have_cuda_device()) return;
    const auto dir = test::gpu_data_dir();
    if (!dir) return;
    const auto frames = test::load_frames(*dir, 4);
    REQUIRE(frames.size() == 4);
    for (const CovarianceLayout layout : {CovarianceLayout{1, false}, CovarianceLayout{1, true},
                                          CovarianceLayout{3, false}, CovarianceLayout{3, true}}) {
        const int w = 301, h = 190;
        const MatchPlanes colour = test::frame_planes(frames, layout.channels, 100, 80, w, h);
        // Grey: the colour plane itself; colour: a fourth frame stands for the grey image.
        const GrayImage& fourth = frames[3].image;
        const GrayView grey = layout.channels == 1 ? colour.planes[0]
                                                   : GrayView{fourth.pixels.data() + 80 * fourth.width + 100, w, h,
                                                              fourth.width};
        CovarianceIntegrals cpu;
        build_covariance_integrals(colour, grey, layout, cpu);
        // The target: a 40x30 window of the same planes (at (50, 20) of the region).
        MatchPlanes templ_colour = colour;
        for (int c = 0; c < layout.channels; ++c) templ_colour.planes[c] = sub_view(colour.planes[c], 50, 20, 40, 30);
        CovarianceIntegrals templ;
        build_covariance_integrals(templ_colour, sub_view(grey, 50, 20, 40, 30), layout, templ);
        const std::vector<double> target = match::target_covariance(templ);
        for (const CovMetric metric : {CovMetric::forstner, CovMetric::jbld}) {
            gpu::CovarianceMatcherGpu matcher(layout, target, metric);
            const std::vector<Size> windows{{40, 30}, {64, 64}};
            const auto maps = matcher.search(colour, grey, windows, 3);
            INFO("channels ", layout.channels, (layout.extended ? " extended" : " basic"), ", metric ",
                 static_cast<int>(metric));
            CHECK(matcher.integrals() == cpu.sums);
            for (std::size_t s = 0; s < windows.size(); ++s) {
                const auto expected = match::covariance_map(cpu, windows[s], target, metric, 3);
                REQUIRE(maps[s].width == expected.width);
                REQUIRE(maps[s].height == expected.height);
                int differ = 0;
                for (std::size_t i = 0; i < expected.scores.size(); ++i) {
                    const double a = maps[s].scores[i], b = expected.scores[i];
                    differ += std::abs(a - b) > 1e-6 * std::max(1.0, std::abs(b));
                }
                CHECK(differ == 0);
            }
        }
    }
}
