#include "train/haar/haar_features.hpp"

#include <algorithm>
#include <numeric>
#include <random>

#include "cli/usage_error.hpp"

namespace cascade::train::haar {

namespace {

struct Cell {
    int x, y, w, h;
    float weight;
};

HaarFeature feature(bool tilted, std::initializer_list<Cell> cells) {
    HaarFeature f;
    f.tilted = tilted ? 1 : 0;
    int k = 0;
    for (const Cell& c : cells)
        f.rects[k++] = {static_cast<std::int16_t>(c.x), static_cast<std::int16_t>(c.y), static_cast<std::int16_t>(c.w),
                        static_cast<std::int16_t>(c.h), c.weight};
    return f;
}

// The features of one position and cell size (x, y, dx, dy), as generateFeatures lists them.
void add_upright(std::vector<HaarFeature>& out, int W, int H, HaarMode mode, int x, int y, int dx, int dy) {
    if (x + dx * 2 <= W && y + dy <= H) out.push_back(feature(false, {{x, y, dx * 2, dy, -1}, {x + dx, y, dx, dy, 2}}));
    if (x + dx <= W && y + dy * 2 <= H) out.push_back(feature(false, {{x, y, dx, dy * 2, -1}, {x, y + dy, dx, dy, 2}}));
    if (x + dx * 3 <= W && y + dy <= H) out.push_back(feature(false, {{x, y, dx * 3, dy, -1}, {x + dx, y, dx, dy, 3}}));
    if (x + dx <= W && y + dy * 3 <= H) out.push_back(feature(false, {{x, y, dx, dy * 3, -1}, {x, y + dy, dx, dy, 3}}));
    if (mode != HaarMode::basic) {
        if (x + dx * 4 <= W && y + dy <= H)
            out.push_back(feature(false, {{x, y, dx * 4, dy, -1}, {x + dx, y, dx * 2, dy, 2}}));
        if (x + dx <= W && y + dy * 4 <= H)
            out.push_back(feature(false, {{x, y, dx, dy * 4, -1}, {x, y + dy, dx, dy * 2, 2}}));
    }
    if (x + dx * 2 <= W && y + dy * 2 <= H)
        out.push_back(feature(false, {{x, y, dx * 2, dy * 2, -1}, {x, y, dx, dy, 2}, {x + dx, y + dy, dx, dy, 2}}));
    if (mode != HaarMode::basic && x + dx * 3 <= W && y + dy * 3 <= H)
        out.push_back(feature(false, {{x, y, dx * 3, dy * 3, -1}, {x + dx, y + dy, dx, dy, 9}}));
}

// ALL's tilted features; a tilted (x, y, w, h) spans x - h .. x + w across and y .. y + w + h down.
void add_tilted(std::vector<HaarFeature>& out, int W, int H, int x, int y, int dx, int dy) {
    if (x + 2 * dx <= W && y + 2 * dx + dy <= H && x - dy >= 0)
        out.push_back(feature(true, {{x, y, dx * 2, dy, -1}, {x, y, dx, dy, 2}}));
    if (x + dx <= W && y + dx + 2 * dy <= H && x - 2 * dy >= 0)
        out.push_back(feature(true, {{x, y, dx, 2 * dy, -1}, {x, y, dx, dy, 2}}));
    if (x + 3 * dx <= W && y + 3 * dx + dy <= H && x - dy >= 0)
        out.push_back(feature(true, {{x, y, dx * 3, dy, -1}, {x + dx, y + dx, dx, dy, 3}}));
    if (x + dx <= W && y + dx + 3 * dy <= H && x - 3 * dy >= 0)
        out.push_back(feature(true, {{x, y, dx, 3 * dy, -1}, {x - dy, y + dy, dx, dy, 3}}));
    if (x + 4 * dx <= W && y + 4 * dx + dy <= H && x - dy >= 0)
        out.push_back(feature(true, {{x, y, dx * 4, dy, -1}, {x + dx, y + dx, dx * 2, dy, 2}}));
    if (x + dx <= W && y + dx + 4 * dy <= H && x - 4 * dy >= 0)
        out.push_back(feature(true, {{x, y, dx, 4 * dy, -1}, {x - dy, y + dy, dx, 2 * dy, 2}}));
}

}  // namespace

HaarMode parse_haar_mode(const std::string& text) {
    if (text == "basic" || text == "BASIC") return HaarMode::basic;
    if (text == "core" || text == "CORE") return HaarMode::core;
    if (text == "all" || text == "ALL") return HaarMode::all;
    throw cli::UsageError("--haar-mode", "'" + text + "' is not one of basic, core, all (BASIC, CORE, ALL)");
}

const char* opencv_mode_name(HaarMode mode) {
    switch (mode) {
        case HaarMode::basic: return "BASIC";
        case HaarMode::core: return "CORE";
        case HaarMode::all: return "ALL";
    }
    return "";
}

std::vector<HaarFeature> haar_features(Size window, HaarMode mode) {
    std::vector<HaarFeature> out;
    const int W = window.width, H = window.height;
    for (int x = 0; x < W; ++x)
        for (int y = 0; y < H; ++y)
            for (int dx = 1; dx <= W; ++dx)
                for (int dy = 1; dy <= H; ++dy) {
                    add_upright(out, W, H, mode, x, y, dx, dy);
                    if (mode == HaarMode::all) add_tilted(out, W, H, x, y, dx, dy);
                }
    return out;
}

std::vector<HaarFeature> sample_haar_features(Size window, HaarMode mode, int count, std::uint64_t seed) {
    std::vector<HaarFeature> all = haar_features(window, mode);
    if (count <= 0 || count >= static_cast<int>(all.size())) return all;
    std::vector<int> order(all.size());
    std::iota(order.begin(), order.end(), 0);
    std::mt19937_64 random(seed);
    for (int i = 0; i < count; ++i) {  // a partial Fisher-Yates shuffle, the same on every platform
        const int j = i + static_cast<int>(random() % (order.size() - static_cast<std::size_t>(i)));
        std::swap(order[static_cast<std::size_t>(i)], order[static_cast<std::size_t>(j)]);
    }
    order.resize(static_cast<std::size_t>(count));
    std::sort(order.begin(), order.end());
    std::vector<HaarFeature> out;
    for (int i : order) out.push_back(all[static_cast<std::size_t>(i)]);
    return out;
}

}  // namespace cascade::train::haar
