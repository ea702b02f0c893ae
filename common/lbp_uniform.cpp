#include "common/lbp_uniform.hpp"

#include <array>

namespace cascade {

namespace {

// lbp_uniform_bin of every code, computed once: the host reads its planes' bins from this table (the same bins).
const std::array<std::uint8_t, 256>& uniform_bins() {
    static const std::array<std::uint8_t, 256> table = [] {
        std::array<std::uint8_t, 256> t{};
        for (int code = 0; code < 256; ++code) t[static_cast<std::size_t>(code)] = static_cast<std::uint8_t>(lbp_uniform_bin(code));
        return t;
    }();
    return table;
}

}  // namespace

LbpBinPlane build_lbp_bin_plane(const GrayView& level) {
    const std::array<std::uint8_t, 256>& bins = uniform_bins();
    LbpBinPlane plane;
    plane.width = level.width;
    plane.height = level.height;
    plane.bins.resize(static_cast<std::size_t>(level.width) * level.height);
    for (int y = 0; y < level.height; ++y)
        for (int x = 0; x < level.width; ++x)
            plane.bins[static_cast<std::size_t>(y) * level.width + x] =
                bins[static_cast<std::size_t>(lbp_pixel_code(level, level.width, level.height, x, y))];
    return plane;
}

}  // namespace cascade
