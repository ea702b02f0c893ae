// The LBP detector's tile layout, checked without a GPU: the integral tiles' row pitch and size, and where the
// level pixels of exact mode live (gpu/lbp_cascade_gpu.hpp, gpu/frame_layout.hpp). The tables the tiles are read
// with are common/lbp_tables.hpp's (tests/common/test_lbp_tables.cpp).
#include <doctest/doctest.h>

#include "gpu/frame_layout.hpp"
#include "gpu/lbp_cascade_gpu.hpp"

using namespace cascade;
using namespace cascade::gpu;

TEST_CASE("integral tiles: an odd pitch that holds the widest tile") {
    for (const Size window : {Size{24, 24}, Size{45, 45}, Size{64, 128}})
        for (int step = 1; step <= 4; ++step) {
            const int pitch = tile_pitch(step, window);
            CHECK(pitch % 2 == 1);
            CHECK(pitch >= (kTileWidth - 1) * step + window.width + 1);
            CHECK(pitch <= (kTileWidth - 1) * step + window.width + 2);
            CHECK(tile_words(kSharedTileRows, step, window) ==
                  pitch * ((kSharedTileRows - 1) * step + window.height + 1));
        }
}

TEST_CASE("level pixels: every level's rows 16-byte aligned, readable a word past the width, levels apart") {
    for (const Size frame : {Size{640, 480}, Size{1921, 1079}})
        for (double first_scale : {1.0, 0.5}) {
            PyramidParams p;
            p.scale_factor = 1.1;
            p.first_scale = first_scale;
            const FrameLayout layout = make_layout(frame, {24, 24}, p, ScanRule{1}, LayoutMode::exact);
            REQUIRE(!layout.gpu.empty());
            long long end = 0;
            for (const GpuLevel& g : layout.gpu) {
                CHECK(g.pixel_offset == end);
                CHECK(g.pixel_offset % kPixelAlign == 0);
                CHECK(g.pixel_stride % kPixelAlign == 0);
                CHECK(g.pixel_stride >= g.width + 3);
                end += static_cast<long long>(g.pixel_stride) * g.height;
            }
            CHECK(layout.pixel_bytes == end);
        }
}
