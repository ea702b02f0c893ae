// cascade-match's GPU backend (match/gpu_source.cpp, --backend gpu) against its CPU backend on real frames, at
// the level of the tool's map sources: the GPU machine has no OpenCV codecs for the tool itself. Two template
// sizes at once (as --scales gives them): TM_* score maps equal bit for bit, exact positions equal, region
// covariance distances within 1e-6 relative (the device's log), and the best region covariance match that the GPU
// source finds on the device is the CPU maps' best. Prints "SKIP: ..." without a GPU or frames.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>

#include "common/covariance_integrals.hpp"
#include "match/covariance_map.hpp"
#include "match/map_source.hpp"
#include "match/peaks.hpp"
#include "tests/gpu/frame_planes.hpp"
#include "tests/gpu/gpu_test_data.hpp"

namespace {

using namespace cascade;

MatchPlanes cut(MatchPlanes p, int x, int y, int w, int h) {
    for (int c = 0; c < p.channels; ++c) {
        p.planes[c].data += y * p.planes[c].stride + x;
        p.planes[c].width = w;
        p.planes[c].height = h;
    }
    return p;
}

void check_same_maps(const match::Options& options, const match::TemplatePlanes& templates, const MatchPlanes& image,
                     double relative) {
    const auto cpu = match::make_cpu_source(options, templates)->maps(image, image.planes[0], {});
    const auto gpu = match::make_gpu_source(options, templates)->maps(image, image.planes[0], {});
    REQUIRE(gpu.size() == cpu.size());
    for (std::size_t s = 0; s < cpu.size(); ++s) {
        REQUIRE(gpu[s].width == cpu[s].width);
        REQUIRE(gpu[s].height == cpu[s].height);
        std::size_t differ = 0;
        for (std::size_t i = 0; i < cpu[s].scores.size(); ++i) {
            const double a = cpu[s].scores[i], b = gpu[s].scores[i];
            differ += relative == 0 ? std::memcmp(&cpu[s].scores[i], &gpu[s].scores[i], sizeof(float)) != 0
                                    : std::abs(a - b) > relative * std::max(1.0, std::abs(a));
        }
        CHECK(differ == 0);
    }
}

}  // namespace

TEST_CASE("cascade-match's GPU map source gives the CPU source's maps and exact matches") {
    if (!test::have_cuda_device()) return;
    const auto dir = test::gpu_data_dir();
    if (!dir) return;
    const auto frames = test::load_frames(*dir, 3);
    REQUIRE(frames.size() == 3);
    for (const int channels : {1, 3}) {
        const MatchPlanes image = test::frame_planes(frames, channels, 0, 0, 400, 300);
        const match::TemplatePlanes templates{{cut(image, 150, 100, 40, 30), cut(image, 120, 80, 90, 70)}, {}};
        match::Options options;
        options.backend = "gpu";
        for (const MatchMethod m : {MatchMethod::sqdiff, MatchMethod::ccoeff_normed}) {
            INFO("channels ", channels, ", mode ", static_cast<int>(m));
            options.method = m;
            check_same_maps(options, templates, image, 0);
        }
        options.exact = true;
        const auto cpu = match::make_cpu_source(options, templates)->exact(image);
        const auto gpu = match::make_gpu_source(options, templates)->exact(image);
        REQUIRE(gpu.size() == 2);
        for (std::size_t s = 0; s < 2; ++s) {
            REQUIRE(gpu[s].size() == cpu[s].size());
            CHECK(!cpu[s].empty());
            for (std::size_t i = 0; i < cpu[s].size(); ++i) CHECK((gpu[s][i].x == cpu[s][i].x && gpu[s][i].y == cpu[s][i].y));
        }
    }
    const MatchPlanes grey = test::frame_planes(frames, 1, 0, 0, 400, 300);
    const MatchPlanes templ = cut(grey, 150, 100, 64, 48);
    CovarianceIntegrals integrals;
    build_covariance_integrals(templ, templ.planes[0], {1, false}, integrals);
    match::Options options;
    options.covariance = CovMetric::jbld;
    options.step = 3;
    const match::TemplatePlanes sizes{{templ, cut(grey, 0, 0, 96, 72)}, match::target_covariance(integrals)};
    check_same_maps(options, sizes, grey, 1e-6);
    // best(): the GPU source finds the CPU maps' best match (top 1, no threshold) on the device; the CPU source
    // leaves it to the maps.
    const auto cpu = match::make_cpu_source(options, sizes);
    CHECK(!cpu->best(grey, grey.planes[0], {}));
    const auto maps = cpu->maps(grey, grey.planes[0], {});
    std::vector<Detection> peaks;
    for (std::size_t s = 0; s < maps.size(); ++s) {
        const Size size{sizes.sizes[s].width(), sizes.sizes[s].height()};
        const auto p = match::find_peaks(maps[s], size, MatchMethod::sqdiff, {});
        peaks.insert(peaks.end(), p.begin(), p.end());
    }
    const Detection expected = match::merge_peaks(peaks, MatchMethod::sqdiff, {}).front();
    const auto found = match::make_gpu_source(options, sizes)->best(grey, grey.planes[0], {});
    REQUIRE(found);
    CHECK(found->rect == expected.rect);
    CHECK(std::abs(found->score - expected.score) <= 1e-6 * std::max(1.0f, std::abs(expected.score)));
}
