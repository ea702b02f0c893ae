#include "common/hog_block_pool.hpp"

#include <algorithm>

namespace cascade {

namespace {

constexpr int kMinSide = 12;

}  // namespace

int hog_block_step(int width, int height) {
    const int shorter = std::min(width, height);
    return shorter < 16 ? 4 : shorter < 24 ? 6 : 8;
}

std::vector<Rect> hog_block_pool(Size window) {
    std::vector<Rect> pool;
    const int aspects[3][2] = {{1, 1}, {1, 2}, {2, 1}};
    for (const auto& aspect : aspects) {
        for (int side = kMinSide;; side += 2) {
            const int w = side * aspect[0], h = side * aspect[1];
            if (w > window.width || h > window.height) break;
            const int step = hog_block_step(w, h);
            for (int y = 0; y + h <= window.height; y += step)
                for (int x = 0; x + w <= window.width; x += step) pool.push_back({x, y, w, h});
        }
    }
    return pool;
}

}  // namespace cascade
