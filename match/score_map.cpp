#include "match/score_map.hpp"

#include <cstdint>

#include "common/integral.hpp"
#include "common/parallel.hpp"
#include "common/template_stats.hpp"

namespace cascade::match {

namespace {

// uint32 accumulates the cross-correlation exactly while every product sum stays below 2^32; it is the
// faster one on the CPU (wider SIMD lanes).
bool cross_fits_uint32(const MatchPlanes& templ) {
    const double largest = 255. * 255. * templ.width() * templ.height() * templ.channels;
    return largest < 4294967296.;
}

template <typename Acc>
void score_rows(const MatchPlanes& image, const MatchPlanes& templ, const TemplateStats& stats,
                const IntegralImage* sums, const SquareIntegralImage& squares, ScoreMap& map, int threads) {
    IntegralView views[max_match_channels];
    for (int c = 0; c < image.channels; ++c) views[c] = sums[c].view();
    const int w = templ.width(), h = templ.height();
    parallel_for(map.height, [&](int y) {
        float* row = &map.scores[static_cast<std::size_t>(y) * map.width];
        for (int x = 0; x < map.width; ++x) {
            const double cross = static_cast<double>(window_cross<Acc>(image, templ, x, y));
            row[x] = match_score(stats, cross, window_sums(views, image.channels, squares.view(), x, y, w, h));
        }
    }, threads);
}

}  // namespace

ScoreMap score_map(const MatchPlanes& image, const MatchPlanes& templ, MatchMethod method, int threads) {
    ScoreMap map;
    map.width = image.width() - templ.width() + 1;
    map.height = image.height() - templ.height() + 1;
    map.scores.assign(static_cast<std::size_t>(map.width) * map.height, 0.f);
    const TemplateStats stats = template_stats(templ, method);
    IntegralImage sums[max_match_channels];
    SquareIntegralImage squares;
    for (int c = 0; c < image.channels; ++c) compute_integral(image.planes[c], sums[c]);
    compute_square_integral(image.planes, image.channels, squares);
    if (cross_fits_uint32(templ))
        score_rows<std::uint32_t>(image, templ, stats, sums, squares, map, threads);
    else
        score_rows<std::uint64_t>(image, templ, stats, sums, squares, map, threads);
    return map;
}

std::vector<MatchPosition> exact_matches(const MatchPlanes& image, const MatchPlanes& templ, int threads) {
    const int width = image.width() - templ.width() + 1, height = image.height() - templ.height() + 1;
    std::vector<std::vector<MatchPosition>> rows(static_cast<std::size_t>(height));
    parallel_for(height, [&](int y) {
        for (int x = 0; x < width; ++x)
            if (window_equals(image, templ, x, y)) rows[static_cast<std::size_t>(y)].push_back({x, y});
    }, threads);
    std::vector<MatchPosition> all;
    for (const auto& row : rows) all.insert(all.end(), row.begin(), row.end());
    return all;
}

}  // namespace cascade::match
