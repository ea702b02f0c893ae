#include "gpu/frame_layout.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace cascade::gpu {

namespace {

constexpr int kCanvasGap = 2;  // pixels between levels on the canvas

int ceil_div(long long a, long long b) { return static_cast<int>((a + b - 1) / b); }

int checked_int(long long v, const char* what) {
    if (v > std::numeric_limits<int>::max()) throw std::length_error(std::string("frame too large: ") + what);
    return static_cast<int>(v);
}

// Texture mode's levels: scales 2^(k/n) while the window fits, as pyramid_levels' fit rule.
std::vector<PyramidLevel> octave_levels(Size frame, Size window, const PyramidParams& params, int n,
                                        std::vector<bool>& scanned) {
    const Size max_object = params.max_object.width > 0 && params.max_object.height > 0 ? params.max_object : frame;
    std::vector<PyramidLevel> levels;
    for (int k = 0;; ++k) {
        const double factor = std::pow(2.0, static_cast<double>(k) / n);
        const Size scaled{static_cast<int>(std::lrint(window.width * factor)),
                          static_cast<int>(std::lrint(window.height * factor))};
        if (scaled.width > max_object.width || scaled.height > max_object.height || scaled.width > frame.width ||
            scaled.height > frame.height)
            break;
        PyramidLevel level;
        level.scale = static_cast<float>(factor);
        level.size = {static_cast<int>(std::lrint(static_cast<float>(frame.width) / level.scale)),
                      static_cast<int>(std::lrint(static_cast<float>(frame.height) / level.scale))};
        level.window = scaled;
        if (level.size.width < window.width || level.size.height < window.height) break;
        levels.push_back(level);
        scanned.push_back(scaled.width >= params.min_object.width && scaled.height >= params.min_object.height);
    }
    return levels;
}

// Shelf packing: levels left to right in rows of the frame's width, a new shelf when one is full.
Size place_on_canvas(Size frame, std::vector<GpuLevel>& gpu) {
    int x = 0, y = 0, shelf_height = 0, width = frame.width;
    for (GpuLevel& g : gpu) {
        if (x > 0 && x + g.width > width) {
            y += shelf_height + kCanvasGap;
            x = 0;
            shelf_height = 0;
        }
        g.canvas_x = x;
        g.canvas_y = y;
        x += g.width + kCanvasGap;
        shelf_height = std::max(shelf_height, g.height);
        width = std::max(width, g.width);
    }
    return {width, y + shelf_height};
}

}  // namespace

int texture_levels_per_octave(double scale_factor) {
    return std::max(1, static_cast<int>(std::lround(std::log(2.0) / std::log(scale_factor))));
}

FrameLayout make_layout(Size frame, Size window, const PyramidParams& params, const ScanRule& rule, LayoutMode mode) {
    FrameLayout out;
    out.frame = frame;
    std::vector<bool> scanned;
    if (mode == LayoutMode::exact) {
        out.levels = pyramid_levels(frame, window, params);
        scanned.assign(out.levels.size(), true);
    } else {
        const int n = texture_levels_per_octave(params.scale_factor);
        out.levels = octave_levels(frame, window, params, n, scanned);
        for (std::size_t k = 0; k < out.levels.size(); k += n) out.octave_begin.push_back(static_cast<int>(k));
        out.octave_begin.push_back(static_cast<int>(out.levels.size()));
    }

    long long integral = 0, pixels = 0, positions = 0, tiles = 0, shared_tiles = 0, rows = 0, strips = 0;
    long long grid_rows = 0;
    long long taps_x = 0, taps_y = 0;
    const int n_per_octave = mode == LayoutMode::texture ? texture_levels_per_octave(params.scale_factor) : 0;
    const auto first_scanned = std::find(scanned.begin(), scanned.end(), true) - scanned.begin();
    const int first_scanned_width = first_scanned < static_cast<long>(out.levels.size())
                                        ? out.levels[static_cast<std::size_t>(first_scanned)].size.width : 0;
    for (std::size_t i = 0; i < out.levels.size(); ++i) {
        const PyramidLevel& level = out.levels[i];
        GpuLevel g{};
        g.scale = level.scale;
        g.width = level.size.width;
        g.height = level.size.height;
        g.integral_offset = checked_int(integral, "integral images");
        g.integral_stride = g.width + 1;
        g.pixel_offset = checked_int(pixels, "level pixels");
        g.pixel_stride = (g.width + 3 + kPixelAlign - 1) / kPixelAlign * kPixelAlign;
        pixels += static_cast<long long>(g.pixel_stride) * g.height;
        integral += ((static_cast<long long>(g.width) + 1) * (g.height + 1) + kIntegralAlign - 1) / kIntegralAlign *
                    kIntegralAlign;
        g.step = scan_step(rule, level);
        if (scanned[i]) {
            out.max_step = std::max(out.max_step, g.step);
            g.grid_width = ceil_div(scan_extent(g.width, window.width), g.step);
            g.grid_height = ceil_div(scan_rows_end(rule, level, first_scanned_width, window), g.step);
        }
        g.first_position = checked_int(positions, "window positions");
        positions += static_cast<long long>(g.grid_width) * g.grid_height;
        g.tiles_x = ceil_div(g.grid_width, kTileWidth);
        g.first_tile = checked_int(tiles, "tiles");
        tiles += static_cast<long long>(g.tiles_x) * ceil_div(g.grid_height, kTileRows);
        g.first_shared_tile = checked_int(shared_tiles, "tiles");
        shared_tiles += static_cast<long long>(g.tiles_x) * ceil_div(g.grid_height, kSharedTileRows);
        g.first_row = checked_int(rows, "rows");
        rows += g.height;
        g.first_strip = checked_int(strips, "strips");
        strips += ceil_div(g.width, kStripWidth);
        g.first_grid_row = checked_int(grid_rows, "rows");
        grid_rows += g.grid_height;
        if (mode == LayoutMode::exact) {
            g.taps_x = checked_int(taps_x, "taps");
            g.taps_y = checked_int(taps_y, "taps");
            taps_x += g.width;
            taps_y += g.height;
            g.source = -1;
        } else {
            g.taps_x = g.taps_y = -1;
            g.source = static_cast<int>(i) < n_per_octave ? -1 : static_cast<int>(i) - n_per_octave;
        }
        out.gpu.push_back(g);
    }
    if (mode == LayoutMode::texture) out.canvas = place_on_canvas(frame, out.gpu);
    out.integral_elements = integral;
    out.pixel_bytes = pixels;
    out.positions = positions;
    out.tiles = checked_int(tiles, "tiles");
    out.shared_tiles = checked_int(shared_tiles, "tiles");
    out.rows = checked_int(rows, "rows");
    out.strips = checked_int(strips, "strips");
    out.grid_rows = checked_int(grid_rows, "rows");
    return out;
}

std::vector<int> group_ends(const std::vector<Stage>& stages, const std::vector<int>& points_in_weaks) {
    const int num_stages = static_cast<int>(stages.size());
    std::vector<int> ends;
    for (int p : points_in_weaks) {
        int weaks = 0, b = 0;
        while (b < num_stages && weaks < p) weaks += stages[b++].count;
        if (b > 0 && b < num_stages && (ends.empty() || ends.back() < b)) ends.push_back(b);
    }
    ends.push_back(num_stages);
    return ends;
}

}  // namespace cascade::gpu
