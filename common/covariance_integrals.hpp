// The covariance integral images of an image (common/covariance_features.hpp), built on the host.
#pragma once

#include <cstdint>
#include <vector>

#include "common/covariance_features.hpp"

namespace cascade {

struct CovarianceIntegrals {
    Size size;  // of the image
    CovarianceLayout layout;
    std::vector<std::int64_t> sums;  // (width + 1) x (height + 1) x layout.planes()

    CovarianceIntegralView view() const { return {sums.data(), size.width + 1, layout}; }
};

// build_covariance_integrals: requires colour.channels == layout.channels and `grey` of the same size (the
//   colour plane itself for one channel).
void build_covariance_integrals(const MatchPlanes& colour, const GrayView& grey, CovarianceLayout layout,
                                CovarianceIntegrals& out);

}  // namespace cascade
