#include "common/lbp_uniform.hpp"

namespace cascade {

LbpBinPlane build_lbp_bin_plane(const GrayView& level) {
    LbpBinPlane plane;
    plane.width = level.width;
    plane.height = level.height;
    plane.bins.resize(static_cast<std::size_t>(level.width) * level.height);
    for (int y = 0; y < level.height; ++y)
        for (int x = 0; x < level.width; ++x)
            plane.bins[static_cast<std::size_t>(y) * level.width + x] =
                static_cast<std::uint8_t>(lbp_uniform_bin(lbp_pixel_code(level, level.width, level.height, x, y)));
    return plane;
}

}  // namespace cascade
