#include "common/foagdd_cpu.hpp"

#include <algorithm>

#include "common/foagdd_pixel.hpp"
#include "common/parallel.hpp"

namespace cascade {

namespace {

constexpr int kBorder = 3;  // the disc's reach: responses are needed 3 pixels around the image

// The first scale's 8 response planes over the image and kBorder pixels around it, plane-major.
std::vector<float> response_planes(const GrayView& image, int threads) {
    const int pw = image.width + 2 * kBorder, ph = image.height + 2 * kBorder;
    const std::size_t plane = static_cast<std::size_t>(pw) * ph;
    const std::vector<float> taps = foagdd_taps(0);
    const int r = kFoagddRadius[0], n = 2 * r + 1;
    std::vector<float> planes(plane * kFoagddOrientations);
    parallel_for(ph, [&](int py) {
        for (int px = 0; px < pw; ++px) {
            const int x = px - kBorder, y = py - kBorder;
            const auto pixel = [&](int dx, int dy) { return foagdd_pixel(image, x + dx, y + dy); };
            for (int k = 0; k < kFoagddOrientations; ++k)
                planes[k * plane + static_cast<std::size_t>(py) * pw + px] =
                    foagdd_response(taps.data() + static_cast<std::size_t>(k) * n * n, r, pixel);
        }
    }, threads);
    return planes;
}

bool is_local_maximum(const std::vector<double>& map, int width, int x, int y) {
    const double m = map[static_cast<std::size_t>(y) * width + x];
    for (int dy = -2; dy <= 2; ++dy)
        for (int dx = -2; dx <= 2; ++dx)
            if (map[static_cast<std::size_t>(y + dy) * width + x + dx] > m) return false;
    return true;
}

}  // namespace

std::vector<double> foagdd_measure_map(const GrayView& image, int threads) {
    const std::vector<float> planes = response_planes(image, threads);
    const int pw = image.width + 2 * kBorder;
    const std::size_t plane = static_cast<std::size_t>(pw) * (image.height + 2 * kBorder);
    std::vector<double> map(static_cast<std::size_t>(image.width) * image.height);
    parallel_for(image.height, [&](int y) {
        for (int x = 0; x < image.width; ++x) {
            const auto d = [&](int k, int j) {
                int dx = 0, dy = 0;
                foagdd_disc_offset(j, dx, dy);
                return planes[k * plane + static_cast<std::size_t>(y + kBorder + dy) * pw + x + kBorder + dx];
            };
            map[static_cast<std::size_t>(y) * image.width + x] = foagdd_measure(d);
        }
    }, threads);
    return map;
}

std::vector<Keypoint> foagdd_candidates(const std::vector<double>& map, int width, int height, double threshold) {
    std::vector<Keypoint> points;
    for (int y = 6; y < height - 5; ++y)
        for (int x = 6; x < width - 5; ++x) {
            const double m = map[static_cast<std::size_t>(y) * width + x];
            if (m > threshold && is_local_maximum(map, width, x, y)) points.push_back({x, y, m});
        }
    return points;
}

double foagdd_point_measure(const GrayView& image, const std::vector<float>& taps, int scale, int x, int y) {
    const int r = kFoagddRadius[scale], n = 2 * r + 1;
    float d[kFoagddOrientations][kFoagddDisc];
    for (int j = 0; j < kFoagddDisc; ++j) {
        int ox = 0, oy = 0;
        foagdd_disc_offset(j, ox, oy);
        const auto pixel = [&](int dx, int dy) { return foagdd_pixel(image, x + ox + dx, y + oy + dy); };
        for (int k = 0; k < kFoagddOrientations; ++k)
            d[k][j] = foagdd_response(taps.data() + static_cast<std::size_t>(k) * n * n, r, pixel);
    }
    return foagdd_measure([&](int k, int j) { return d[k][j]; });
}

std::vector<Keypoint> foagdd_keypoints(const GrayView& image, double threshold, int threads) {
    const std::vector<double> map = foagdd_measure_map(image, threads);
    const std::vector<Keypoint> candidates = foagdd_candidates(map, image.width, image.height, threshold);
    const std::vector<float> taps[2] = {foagdd_taps(1), foagdd_taps(2)};
    std::vector<char> kept(candidates.size());
    parallel_for(static_cast<int>(candidates.size()), [&](int i) {
        const Keypoint& p = candidates[i];
        kept[i] = foagdd_point_measure(image, taps[0], 1, p.x, p.y) > threshold &&
                  foagdd_point_measure(image, taps[1], 2, p.x, p.y) > threshold;
    }, threads);
    std::vector<Keypoint> corners;
    for (std::size_t i = 0; i < candidates.size(); ++i)
        if (kept[i]) corners.push_back(candidates[i]);
    return corners;
}

}  // namespace cascade
