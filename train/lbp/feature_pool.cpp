#include "train/lbp/feature_pool.hpp"

#include <algorithm>
#include <tuple>
#include <unordered_set>

#include "data/random.hpp"

namespace cascade::train::lbp {

namespace {

LbpFeature make(int x, int y, int w, int h) {
    return {static_cast<std::int16_t>(x), static_cast<std::int16_t>(y), static_cast<std::int16_t>(w),
            static_cast<std::int16_t>(h)};
}

}  // namespace

std::uint64_t feature_key(const LbpFeature& f) {
    return (static_cast<std::uint64_t>(static_cast<std::uint16_t>(f.height)) << 48) |
           (static_cast<std::uint64_t>(static_cast<std::uint16_t>(f.width)) << 32) |
           (static_cast<std::uint64_t>(static_cast<std::uint16_t>(f.y)) << 16) | static_cast<std::uint16_t>(f.x);
}

long long count_lbp_features(Size window, int min_cell) {
    long long n = 0;
    for (int h = min_cell; 3 * h <= window.height; ++h)
        for (int w = min_cell; 3 * w <= window.width; ++w)
            n += static_cast<long long>(window.width - 3 * w + 1) * (window.height - 3 * h + 1);
    return n;
}

std::vector<LbpFeature> sample_lbp_features(Size window, int count, std::uint64_t seed, int min_cell) {
    std::vector<LbpFeature> pool;
    if (count >= count_lbp_features(window, min_cell)) {
        for (int h = min_cell; 3 * h <= window.height; ++h)
            for (int w = min_cell; 3 * w <= window.width; ++w)
                for (int y = 0; y + 3 * h <= window.height; ++y)
                    for (int x = 0; x + 3 * w <= window.width; ++x) pool.push_back(make(x, y, w, h));
        return pool;
    }
    const int widths = window.width / 3 - min_cell + 1, heights = window.height / 3 - min_cell + 1;
    data::Random random(seed, {0x6c6270706f6f6cull});
    std::unordered_set<std::uint64_t> seen;
    while (static_cast<int>(pool.size()) < count) {
        const int w = min_cell + static_cast<int>(random.below(static_cast<std::uint64_t>(widths)));
        const int h = min_cell + static_cast<int>(random.below(static_cast<std::uint64_t>(heights)));
        const int x = static_cast<int>(random.below(static_cast<std::uint64_t>(window.width - 3 * w + 1)));
        const int y = static_cast<int>(random.below(static_cast<std::uint64_t>(window.height - 3 * h + 1)));
        const LbpFeature f = make(x, y, w, h);
        if (seen.insert(feature_key(f)).second) pool.push_back(f);
    }
    std::sort(pool.begin(), pool.end(), [](const LbpFeature& a, const LbpFeature& b) {
        return std::tie(a.height, a.width, a.y, a.x) < std::tie(b.height, b.width, b.y, b.x);
    });
    return pool;
}

}  // namespace cascade::train::lbp
