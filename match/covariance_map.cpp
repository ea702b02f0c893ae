#include "match/covariance_map.hpp"

#include "common/parallel.hpp"

namespace cascade::match {

std::vector<double> target_covariance(const CovarianceIntegrals& templ) {
    const int d = templ.layout.dim();
    std::vector<double> cov(static_cast<std::size_t>(d) * d);
    window_covariance(templ.view(), 0, 0, templ.size.width, templ.size.height, cov.data());
    return cov;
}

ScoreMap covariance_map(const CovarianceIntegrals& frame, Size window, const std::vector<double>& target,
                        CovMetric metric, int step, int threads) {
    ScoreMap map;
    map.step = step;
    map.width = (frame.size.width - window.width) / step + 1;
    map.height = (frame.size.height - window.height) / step + 1;
    map.scores.assign(static_cast<std::size_t>(map.width) * map.height, 0.f);
    const CovarianceIntegralView view = frame.view();
    const SpdTarget prepared = spd_target(target.data(), frame.layout.dim());
    parallel_for(map.height, [&](int row) {
        for (int col = 0; col < map.width; ++col)
            map.scores[static_cast<std::size_t>(row) * map.width + col] = static_cast<float>(
                window_distance(view, col * step, row * step, window.width, window.height, prepared, metric));
    }, threads);
    return map;
}

}  // namespace cascade::match
