// The GPU detector's host-side plan, checked without a GPU: frame layouts, compaction points, OpenCV's skip
// rule as a scan, and the whole schedule the kernels follow (groups of stages, survivors carried with their
// sums, skip resolution after the fact) emulated on the CPU and compared with detect_windows on real frames.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>

#include "bench/gpu/pgm.hpp"
#include "common/cascade_eval.hpp"
#include "common/integral.hpp"
#include "common/lbp_cpu_detector.hpp"
#include "common/resize_exact.hpp"
#include "gpu/frame_layout.hpp"
#include "gpu/skip_rule.hpp"
#include "tests/gpu/gpu_test_data.hpp"
#include "tests/gpu/waldboost_like.hpp"

namespace {

using namespace cascade;
using namespace cascade::gpu;

bool by_rect_then_score(const Detection& a, const Detection& b) {
    return a.rect < b.rect || (a.rect == b.rect && a.score < b.score);
}

bool same(const std::vector<Detection>& a, const std::vector<Detection>& b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](const Detection& x, const Detection& y) {
               return x.rect == y.rect && x.score == y.score;
           });
}

// What the kernels do, step by step, on the CPU: level pixels from the taps (ExactPixels), integrals, group 0
// on every position recording stage-0 rejections, later groups on survivors, the skip scan, the filter.
std::vector<Detection> emulate_schedule(const LbpCascade& c, const GrayView& frame, const PyramidParams& p,
                                        const ScanRule& rule, const std::vector<int>& ends) {
    const FrameLayout layout = make_layout(frame.size(), c.window, p, rule, LayoutMode::exact);
    const LbpCascadeView view = view_of(c);
    std::vector<std::uint8_t> rejected0(static_cast<std::size_t>(layout.positions));
    struct Alive {
        int level, x, y;
        double sum;
        bool accepted;  // by an acceptance threshold before the last stage: later groups pass it on
    };
    std::vector<Alive> alive;
    std::vector<IntegralImage> integrals(layout.levels.size());
    for (std::size_t l = 0; l < layout.levels.size(); ++l) {
        const GpuLevel& g = layout.gpu[l];
        const auto tx = linear_exact_taps(frame.width, g.width), ty = linear_exact_taps(frame.height, g.height);
        GrayImage image(g.width, g.height);
        for (int y = 0; y < g.height; ++y)
            for (int x = 0; x < g.width; ++x) image.row(y)[x] = resize_linear_exact_pixel(frame, tx[x], ty[y]);
        compute_integral(image.view(), integrals[l]);
        const IntegralView sums = integrals[l].view();
        for (int gy = 0; gy < g.grid_height; ++gy)
            for (int gx = 0; gx < g.grid_width; ++gx) {
                Alive a{static_cast<int>(l), gx * g.step, gy * g.step, 0.0, false};
                const int reached = run_stages(view, LbpWindow<IntegralView>{view, sums, a.x, a.y}, 0, ends[0], a.sum);
                rejected0[g.first_position + gy * g.grid_width + gx] = reached == 0;
                a.accepted = reached > ends[0];
                if (reached >= ends[0]) alive.push_back(a);
            }
    }
    for (std::size_t k = 1; k < ends.size(); ++k) {
        std::vector<Alive> next;
        for (Alive a : alive) {
            const IntegralView sums = integrals[a.level].view();
            const int reached = a.accepted ? static_cast<int>(c.stages.size())
                                           : run_stages(view, LbpWindow<IntegralView>{view, sums, a.x, a.y}, ends[k - 1],
                                                        ends[k], a.sum);
            a.accepted = reached > ends[k];
            if (reached >= ends[k]) next.push_back(a);
        }
        alive.swap(next);
    }
    std::vector<std::uint8_t> visited(rejected0.size(), 1);
    if (rule.stride == 0)
        for (const GpuLevel& g : layout.gpu)
            for (int gy = 0; gy < g.grid_height; ++gy) {
                unsigned prefix = kSkipIdentity;
                for (int gx = 0; gx < g.grid_width; ++gx) {
                    const int i = g.first_position + gy * g.grid_width + gx;
                    visited[i] = skip_apply(prefix, true);
                    prefix = SkipCompose{}(prefix, skip_step(rejected0[i] != 0));
                }
            }
    std::vector<Detection> out;
    for (const Alive& a : alive) {
        const GpuLevel& g = layout.gpu[a.level];
        if (visited[g.first_position + (a.y / g.step) * g.grid_width + a.x / g.step])
            out.push_back({to_image(layout.levels[a.level], a.x, a.y), static_cast<float>(a.sum)});
    }
    std::sort(out.begin(), out.end(), by_rect_then_score);
    return out;
}

}  // namespace

TEST_CASE("compaction points in weak learners round up to stage boundaries") {
    std::vector<Stage> stages = {{0, 3, 0.f}, {3, 4, 0.f}, {7, 4, 0.f}, {11, 5, 0.f}, {16, 60, 0.f}};
    CHECK(group_ends(stages, {1, 8, 64, 256, 512}) == std::vector<int>{1, 3, 5});
    CHECK(group_ends(stages, {}) == std::vector<int>{5});
    CHECK(group_ends(stages, {3, 4, 7}) == std::vector<int>{1, 2, 5});
    std::vector<Stage> single(100);
    for (int i = 0; i < 100; ++i) single[i] = {i, 1, 0.f};
    CHECK(group_ends(single, {1, 8, 64, 256, 512}) == std::vector<int>{1, 8, 64, 100});
}

TEST_CASE("OpenCV's skip rule as a scan of composed functions equals the sequential recurrence") {
    std::mt19937 random(7);
    for (int trial = 0; trial < 200; ++trial) {
        const int n = 1 + static_cast<int>(random() % 300);
        const double p = static_cast<double>(random() % 100) / 100.0;
        std::vector<int> rejected(n);
        for (int& r : rejected) r = std::bernoulli_distribution(p)(random);
        std::vector<int> expected(n);
        for (int x = 0, v = 1; x < n; ++x) {  // scan_row's loop
            expected[x] = v;
            v = !(v && rejected[x]);
        }
        // Any split into tiles gives the same prefixes (associativity), as CUB's tiles do.
        const int tile = 1 + static_cast<int>(random() % 40);
        unsigned carried = kSkipIdentity;
        for (int x0 = 0; x0 < n; x0 += tile) {
            unsigned local = kSkipIdentity;
            for (int x = x0; x < std::min(n, x0 + tile); ++x) {
                CHECK(skip_apply(SkipCompose{}(carried, local), true) == (expected[x] != 0));
                local = SkipCompose{}(local, skip_step(rejected[x] != 0));
            }
            carried = SkipCompose{}(carried, local);
        }
    }
}

TEST_CASE("frame layouts: exact levels are the CPU's, blocks and buffers do not overlap") {
    const Size frame{1280, 720}, window{24, 24};
    for (int stride : {0, 1, 3})
        for (double factor : {1.05, 1.1, 1.2}) {
            PyramidParams p;
            p.scale_factor = factor;
            const ScanRule rule{stride};
            const FrameLayout layout = make_layout(frame, window, p, rule, LayoutMode::exact);
            const auto cpu = pyramid_levels(frame, window, p);
            REQUIRE(layout.levels.size() == cpu.size());
            long long positions = 0;
            for (std::size_t i = 0; i < cpu.size(); ++i) {
                const GpuLevel& g = layout.gpu[i];
                CHECK(layout.levels[i].scale == cpu[i].scale);
                CHECK(g.width == cpu[i].size.width);
                CHECK(g.step == scan_step(rule, cpu[i]));
                // grid_width positions cover 0, step, ... up to the last origin the CPU visits.
                CHECK((g.grid_width - 1) * g.step <= g.width - window.width);
                CHECK(g.grid_width * g.step > g.width - window.width);
                CHECK(g.first_position == positions);
                positions += static_cast<long long>(g.grid_width) * g.grid_height;
                if (i > 0) {
                    const GpuLevel& prev = layout.gpu[i - 1];
                    CHECK(g.integral_offset >= prev.integral_offset + (prev.width + 1) * (prev.height + 1));
                    CHECK(g.integral_offset % kIntegralAlign == 0);
                    CHECK(g.first_row == prev.first_row + prev.height);
                }
            }
            CHECK(layout.positions == positions);
        }
}

TEST_CASE("texture layouts: octaves of 2^(1/n) levels, each sampled from the frame or one octave up, apart on the canvas") {
    const Size frame{1920, 1080}, window{24, 24};
    PyramidParams p;
    p.scale_factor = 1.1;
    p.min_object = {40, 40};
    const FrameLayout layout = make_layout(frame, window, p, ScanRule{1}, LayoutMode::texture);
    const int n = texture_levels_per_octave(1.1);
    CHECK(n == 7);
    CHECK(texture_levels_per_octave(1.2) == 4);
    REQUIRE(layout.levels.size() > static_cast<std::size_t>(3 * n));
    for (std::size_t i = 0; i < layout.gpu.size(); ++i) {
        const GpuLevel& g = layout.gpu[i];
        CHECK(g.source == (static_cast<int>(i) < n ? -1 : static_cast<int>(i) - n));
        CHECK(layout.levels[i].scale == doctest::Approx(std::pow(2.0, static_cast<double>(i) / n)));
        CHECK((g.grid_width > 0) == (layout.levels[i].window.width >= 40));
        CHECK(g.canvas_x + g.width <= layout.canvas.width);
        CHECK(g.canvas_y + g.height <= layout.canvas.height);
        for (std::size_t j = 0; j < i; ++j) {
            const GpuLevel& h = layout.gpu[j];
            const bool apart = g.canvas_x >= h.canvas_x + h.width || h.canvas_x >= g.canvas_x + g.width ||
                               g.canvas_y >= h.canvas_y + h.height || h.canvas_y >= g.canvas_y + g.height;
            CHECK(apart);
        }
    }
}

TEST_CASE("PGM files round-trip") {
    GrayImage image(37, 11);
    for (std::size_t i = 0; i < image.pixels.size(); ++i) image.pixels[i] = static_cast<std::uint8_t>(i * 7);
    const std::string path = "test_gpu_schedule_roundtrip.pgm";
    write_pgm(image.view(), path);
    const GrayImage back = read_pgm(path);
    std::remove(path.c_str());
    CHECK(back.width == 37);
    CHECK(back.height == 11);
    CHECK(back.pixels == image.pixels);
}

TEST_CASE("the GPU's schedule, emulated on the CPU, gives detect_windows' windows on real frames") {
    const auto dir = test::gpu_data_dir();
    if (!dir) return;
    const auto frames = test::load_frames(*dir, 2);
    const auto face = test::load_lbp_model(*dir, "lbpcascade_frontalface.xml");
    if (frames.empty() || !face) return;
    std::vector<GrayView> views;
    for (const auto& f : frames) views.push_back(f.image.view());
    const test::WaldboostLike wald = test::make_waldboost_like(*face, views);
    CHECK(wald.sample_survival[0] < 0.35);  // most windows are rejected by the first weak learner
    test::WaldboostLikeParams accepting;
    accepting.accept_share = 0.02;
    const test::WaldboostLike early = test::make_waldboost_like(*face, views, accepting);
    REQUIRE_NOTHROW(validate(early.cascade, "waldboost-like with acceptance"));

    long long windows = 0;
    for (const LbpCascade* c : {&*face, &wald.cascade, &early.cascade})
        for (const auto& f : frames)
            for (int stride : {0, 1})
                for (double factor : {1.1, 1.2}) {
                    ScanParams params;
                    params.pyramid.scale_factor = factor;
                    params.rule.stride = stride;
                    auto cpu = detect_windows(*c, f.image.view(), params);
                    std::sort(cpu.begin(), cpu.end(), by_rect_then_score);
                    const auto ends = group_ends(c->stages, {1, 8, 64, 256, 512});
                    const auto emulated = emulate_schedule(*c, f.image.view(), params.pyramid, params.rule, ends);
                    INFO(f.label << " stride " << stride << " factor " << factor << ": " << cpu.size() << " CPU, "
                                 << emulated.size() << " emulated");
                    CHECK(same(cpu, emulated));
                    windows += static_cast<long long>(cpu.size());
                }
    CHECK(windows > 100);
}
