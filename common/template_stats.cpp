#include "common/template_stats.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace cascade {

TemplateStats template_stats(const MatchPlanes& templ, MatchMethod method) {
    TemplateStats s;
    s.method = method;
    s.channels = templ.channels;
    const double area = static_cast<double>(templ.width()) * templ.height();
    s.inv_area = 1. / area;
    if (method == MatchMethod::ccorr) return s;  // the cross-correlation alone
    double mean[max_match_channels] = {0, 0, 0}, variance = 0, mean2 = 0;
    for (int c = 0; c < templ.channels; ++c) {
        std::uint64_t sum = 0, squares = 0;
        for (int y = 0; y < templ.height(); ++y)
            for (int x = 0; x < templ.width(); ++x) {
                const std::uint64_t v = templ.planes[c].at(x, y);
                sum += v;
                squares += v * v;
            }
        mean[c] = static_cast<double>(sum) * s.inv_area;
        const double sdv = std::sqrt(std::max(static_cast<double>(squares) * s.inv_area - mean[c] * mean[c], 0.));
        variance += sdv * sdv;
        mean2 += mean[c] * mean[c];
    }
    // OpenCV's order of operations (templmatch.cpp, common_matchTemplate's caller).
    if (method == MatchMethod::ccoeff_normed && variance < 2.220446049250313e-16) s.flat = true;
    double norm = variance;
    s.sum2 = variance + mean2;
    if (match_is_ccoeff(method)) {
        for (int c = 0; c < templ.channels; ++c) s.mean[c] = mean[c];
    } else {
        norm = s.sum2;
    }
    s.sum2 /= s.inv_area;
    s.norm = std::sqrt(norm) / std::sqrt(s.inv_area);
    return s;
}

}  // namespace cascade
