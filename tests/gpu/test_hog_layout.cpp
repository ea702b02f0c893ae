// The GPU HoG detector's host-side plan, checked without a GPU: where the level images and the 9 interleaved
// integral histograms of every level live (gpu/hog_layout.hpp), and the blocks of the column pass.
#include <doctest/doctest.h>

#include "common/model.hpp"
#include "common/pyramid.hpp"
#include "gpu/hog_layout.hpp"

namespace {

using namespace cascade;
using namespace cascade::gpu;

}  // namespace

TEST_CASE("HoG layouts: the CPU's levels, histogram tables apart and aligned, stacked rows wide enough") {
    const Size window{64, 128};
    for (const Size frame : {Size{640, 480}, Size{1280, 960}, Size{1920, 1080}})
        for (double first_scale : {1.0, 0.5})  // 0.5: levels up to twice the frame's width
            for (int stride : {8, 0}) {
                PyramidParams p;
                p.scale_factor = 1.1;
                p.first_scale = first_scale;
                const ScanRule rule{stride};
                INFO(frame.width << "x" << frame.height << ", first scale " << first_scale << ", stride " << stride);
                const HogFrameLayout layout = make_hog_layout(frame, window, p, rule);
                const auto cpu = pyramid_levels(frame, window, p);
                REQUIRE(layout.base.levels.size() == cpu.size());
                REQUIRE(layout.words.size() == cpu.size());
                CHECK(layout.base.positions == make_layout(frame, window, p, rule, LayoutMode::exact).positions);
                CHECK(layout.pitch % 128 == 0);
                long long rows = 0, words_end = 0, strips = 0;
                for (std::size_t i = 0; i < cpu.size(); ++i) {
                    const GpuLevel& g = layout.base.gpu[i];
                    const GpuLevel& w = layout.words[i];
                    CHECK(g.width == cpu[i].size.width);
                    CHECK(g.height == cpu[i].size.height);
                    CHECK(g.width <= layout.pitch);  // a level row fits a row of the stacked images
                    CHECK(g.first_row == rows);
                    rows += g.height;
                    // (width + 1) x (height + 1) corners of kHogBins words, after the previous table, aligned.
                    CHECK(g.integral_stride == kHogBins * (g.width + 1));
                    CHECK(g.integral_offset % kIntegralAlign == 0);
                    CHECK(g.integral_offset >= words_end);
                    words_end = g.integral_offset + static_cast<long long>(g.integral_stride) * (g.height + 1);
                    // The column pass sees the same table as word columns 1 .. stride - 1.
                    CHECK(w.integral_offset == g.integral_offset);
                    CHECK(w.integral_stride == g.integral_stride);
                    CHECK(w.height == g.height);
                    CHECK(w.width == g.integral_stride - 1);
                    CHECK(w.first_strip == strips);
                    strips += (w.width + kStripWidth - 1) / kStripWidth;
                }
                CHECK(layout.base.rows == rows);
                CHECK(layout.base.integral_elements >= words_end);
                CHECK(layout.word_strips == strips);
            }
}
