#include "common/covariance_integrals.hpp"

namespace cascade {

void build_covariance_integrals(const MatchPlanes& colour, const GrayView& grey, CovarianceLayout layout,
                                CovarianceIntegrals& out) {
    const int w = grey.width, h = grey.height, d = layout.dim(), planes = layout.planes();
    out.size = grey.size();
    out.layout = layout;
    out.sums.assign(static_cast<std::size_t>(w + 1) * (h + 1) * planes, 0);
    const CovarianceIntegralView view = out.view();
    std::vector<std::int64_t> row(static_cast<std::size_t>(planes));
    int f[max_cov_features];
    for (int y = 0; y < h; ++y) {
        std::fill(row.begin(), row.end(), 0);
        for (int x = 0; x < w; ++x) {
            pixel_features(colour, grey, layout, x, y, f);
            int k = 0;
            for (; k < d; ++k) row[static_cast<std::size_t>(k)] += f[k];
            for (int i = 0; i < d; ++i)
                for (int j = i; j < d; ++j, ++k) row[static_cast<std::size_t>(k)] += std::int64_t(f[i]) * f[j];
            const std::int64_t* above = view.at(x + 1, y);
            std::int64_t* here = const_cast<std::int64_t*>(view.at(x + 1, y + 1));
            for (k = 0; k < planes; ++k) here[k] = above[k] + row[static_cast<std::size_t>(k)];
        }
    }
}

}  // namespace cascade
