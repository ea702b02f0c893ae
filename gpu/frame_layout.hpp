// Where everything of one frame size lives on the device: pyramid levels, their integral images, the window
// positions each kernel visits, and how blocks of each kernel map onto levels. Host code, computed once per
// (frame size, options) and uploaded as a table of GpuLevel records that every kernel reads.
//
// Block mappings: each kernel's blocks are numbered over all levels in level order; GpuLevel holds, per
// kernel, the number of the level's first block (first_*), so a block finds its level by a binary search
// (gpu/level_lookup.cuh).
#pragma once

#include <cstdint>
#include <vector>

#include "common/geometry.hpp"
#include "common/model.hpp"
#include "common/pyramid.hpp"
#include "common/scan.hpp"

namespace cascade::gpu {

// Window positions per block: kTileWidth x kTileRows for the first-group kernels (256 threads, one per
// position), kTileWidth x kSharedTileRows for the shared-memory strategy (Source::kSharedThreads threads, each
// taking several positions in turn: LBP 128 threads, 8 positions each; HoG 256, 4 each; gpu/shared_lists.cuh).
constexpr int kTileWidth = 32;
constexpr int kTileRows = 8;
constexpr int kSharedTileRows = 32;
// Columns per block of the integral images' column pass.
constexpr int kStripWidth = 32;
// Integral images start at multiples of this many elements (128 bytes).
constexpr int kIntegralAlign = 32;
// Level pixel rows start at multiples of this many bytes (aligned rows; the 3 bytes of slack each row keeps
// served tile loads a word at a time, which integrate_tile no longer makes: nothing reads them now).
constexpr int kPixelAlign = 16;

struct GpuLevel {
    float scale;           // image pixels per level pixel
    int width, height;     // level image
    int integral_offset;   // element index of the level's integral image in the frame's integral buffer
    int integral_stride;   // elements per integral row: width + 1
    int pixel_offset;      // byte index of the level's pixels in the frame's level-pixel buffer (exact mode)
    int pixel_stride;      // bytes per pixel row: width + 3 rounded up to kPixelAlign
    int step;              // scan step in level pixels
    int grid_width;        // window positions per row (0 when the level is built but not scanned)
    int grid_height;       // rows of window positions
    int first_position;    // number of position (0, 0) in the frame's numbering of positions
    int first_tile;        // first block of the first-group kernels
    int tiles_x;           // first-group tiles per row of positions
    int first_shared_tile; // first block of the shared-memory kernel
    int first_row;         // first block of the row pass (one block per level row)
    int first_strip;       // first block of the column pass (one block per kStripWidth columns)
    int first_grid_row;    // first block of the skip resolution (one block per row of positions)
    // exact mode: offsets of the level's horizontal and vertical resize taps; texture mode: -1
    int taps_x, taps_y;
    // texture mode: the level's origin in the canvas and the level it is sampled from (-1: the frame)
    int canvas_x, canvas_y;
    int source;
};

struct FrameLayout {
    Size frame;
    std::vector<PyramidLevel> levels;  // host geometry, for mapping windows back to the image
    std::vector<GpuLevel> gpu;         // the same levels as the kernels see them
    std::vector<int> octave_begin;     // texture mode: first level of each octave, then levels.size()
    Size canvas;                       // texture mode: the canvas holding every level
    long long integral_elements = 0;
    long long pixel_bytes = 0;         // the level-pixel buffer
    long long positions = 0;           // window positions scanned
    int max_step = 1;                  // largest scan step of a scanned level
    int tiles = 0, shared_tiles = 0, rows = 0, strips = 0, grid_rows = 0;
};

enum class LayoutMode { exact, texture };

// requires: window non-empty, params.scale_factor > 1.
// ensures:  exact: the levels of pyramid_levels(frame, window, params), in that order;
//           texture: octave levels 2^(k/n) (n = texture_levels_per_octave), every level down to the last
//           that fits built, those below params.min_object not scanned (grid 0 x 0);
//           positions of level l: x = 0, step, ... < width - window.width + 1 (likewise y), step from
//           scan_step(rule, level); all counts fit in int.
FrameLayout make_layout(Size frame, Size window, const PyramidParams& params, const ScanRule& rule, LayoutMode mode);

int texture_levels_per_octave(double scale_factor);

// Stage boundaries for compaction points given in weak learners: for each point p, the first stage boundary
// b (0 < b < num_stages) with at least p weak learners in stages [0, b); duplicates dropped. The result ends
// with num_stages, so it lists the end of every group of stages.
std::vector<int> group_ends(const std::vector<Stage>& stages, const std::vector<int>& points_in_weaks);

}  // namespace cascade::gpu
