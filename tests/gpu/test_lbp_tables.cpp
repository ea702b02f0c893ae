// The GPU LBP detector's host-side tables, checked without a GPU: two-valued response tables as stumps
// (gpu/cascade_gpu.hpp stump_tables), the weak-learner records of the integral tiles, the tiles' pitch, and
// where the level pixels of exact mode live (gpu/frame_layout.hpp).
#include <doctest/doctest.h>

#include <cstring>
#include <fstream>
#include <string>

#include "common/model_io.hpp"
#include "gpu/cascade_gpu.hpp"
#include "gpu/frame_layout.hpp"
#include "tests/gpu/gpu_test_data.hpp"

namespace {

using namespace cascade;
using namespace cascade::gpu;

// An LBP model from Debian's opencv-data, else from the GPU data folder (the GPU machine has no opencv-data).
std::optional<LbpCascade> opencv_model(const std::string& file) {
    const std::string system = "/usr/share/opencv4/lbpcascades/" + file;
    if (std::ifstream(system).good()) return std::get<LbpCascade>(load_model(system).cascade);
    const auto dir = test::gpu_data_dir();
    if (!dir) return std::nullopt;
    return test::load_lbp_model(*dir, file);
}

std::uint32_t bits_of(float f) {
    std::uint32_t b;
    std::memcpy(&b, &f, sizeof b);
    return b;
}

}  // namespace

TEST_CASE("stump tables: OpenCV's LBP cascades as subsets and two leaves give every table entry, bit for bit") {
    for (const char* file : {"lbpcascade_frontalface.xml", "lbpcascade_frontalface_improved.xml"}) {
        const auto c = opencv_model(file);
        if (!c) {
            MESSAGE("SKIP: " << file << " not found (opencv-data, or tools/gpu-pack's data folder)");
            continue;
        }
        const std::vector<std::uint32_t> stumps = stump_tables(*c);
        REQUIRE(stumps.size() == c->weaks.size() * kStumpWords);
        int both_leaves = 0;
        for (std::size_t i = 0; i < c->weaks.size(); ++i) {
            const std::uint32_t* s = stumps.data() + i * kStumpWords;
            both_leaves += s[8] != s[9];
            for (int code = 0; code < kLbpCodes; ++code) {
                const bool second = (s[code / 32] >> (code % 32)) & 1u;
                const float table = c->responses[static_cast<std::size_t>(c->weaks[i].table) * kLbpCodes + code];
                INFO(file << ", weak learner " << i << ", code " << code);
                REQUIRE(s[second ? 9 : 8] == bits_of(table));
            }
        }
        CHECK(both_leaves == static_cast<int>(c->weaks.size()));  // every stump splits its codes
        // The tile records then hold each weak learner's own number and its corner offsets for the pitch.
        const int pitch = tile_pitch(2, c->window);
        const std::vector<TileWeak> weaks = tile_weaks(*c, true, pitch);
        REQUIRE(weaks.size() == c->weaks.size());
        for (std::size_t i = 0; i < weaks.size(); ++i) {
            const LbpSteps k = lbp_steps(c->weaks[i].feature, pitch);
            CHECK(weaks[i].table == static_cast<int>(i));
            CHECK((weaks[i].steps.first == k.first && weaks[i].steps.row == k.row && weaks[i].steps.col == k.col));
        }
    }
}

TEST_CASE("stump tables: a WaldBoost model's real-valued tables are kept as tables") {
    const LbpCascade c =
        std::get<LbpCascade>(load_model(std::string(CASCADE_SOURCE_DIR) + "/models/pedestrian_lbp_64x128.xml").cascade);
    CHECK(stump_tables(c).empty());
    const std::vector<TileWeak> weaks = tile_weaks(c, false, tile_pitch(1, c.window));
    REQUIRE(weaks.size() == c.weaks.size());
    for (std::size_t i = 0; i < weaks.size(); ++i) CHECK(weaks[i].table == c.weaks[i].table * kLbpCodes);
}

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
