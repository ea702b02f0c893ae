#include "common/cov_features.hpp"

#include <algorithm>
#include <stdexcept>

namespace cascade {

// Each grid cell's sums first (a row of cells at a time), then the corners as running sums: corner (gx, gy) =
// corner (gx, gy - 1) + the cells (0..gx-1, gy-1). Pixels right of or below the last full cell belong to no
// corner and are not read.
void compute_cov_planes(const GrayView& image, CovPlanes& out, bool with_lbp_bins) {
    if (image.width > kCovMaxLevelSide || image.height > kCovMaxLevelSide)
        throw std::invalid_argument("covariance planes: levels are limited to 8192 pixels a side");
    out.bins = with_lbp_bins ? build_lbp_bin_plane(image) : LbpBinPlane{};
    out.size = image.size();
    out.columns = image.width / kCovGrid + 1;
    out.rows = image.height / kCovGrid + 1;
    out.sums.assign(static_cast<std::size_t>(out.columns) * out.rows * kCovPlanes, 0);
    const int cells = out.columns - 1;
    std::vector<std::int64_t> row(static_cast<std::size_t>(cells) * kCovPlanes);
    int f[kCovFeatures];
    for (int gy = 1; gy < out.rows; ++gy) {
        std::fill(row.begin(), row.end(), 0);
        for (int y = (gy - 1) * kCovGrid; y < gy * kCovGrid; ++y)
            for (int x = 0; x < cells * kCovGrid; ++x) {
                cov_pixel_features(image, x, y, f);
                add_cov_pixel(f, &row[static_cast<std::size_t>(x / kCovGrid) * kCovPlanes]);
            }
        const std::int64_t* above = out.sums.data() + static_cast<std::size_t>(gy - 1) * out.columns * kCovPlanes;
        std::int64_t* here = out.sums.data() + static_cast<std::size_t>(gy) * out.columns * kCovPlanes;
        std::int64_t left[kCovPlanes] = {};
        for (int gx = 1; gx < out.columns; ++gx)
            for (int k = 0; k < kCovPlanes; ++k) {
                left[k] += row[static_cast<std::size_t>(gx - 1) * kCovPlanes + k];
                here[gx * kCovPlanes + k] = above[gx * kCovPlanes + k] + left[k];
            }
    }
}

}  // namespace cascade
