#include "common/mean_shift.hpp"

#include <algorithm>
#include <array>

namespace cascade {

namespace {

using Point = std::array<double, 3>;  // centre x, centre y, log scale

struct Kernel {
    Point centre;
    Point inverse_bandwidth;  // diagonal of H_i^-1
    double t;                 // the detection's weight t_i
    double weight;            // t_i |H_i|^-1/2 (up to a constant factor)
};

double distance2(const Point& y, const Kernel& k) {
    double d2 = 0.0;
    for (int a = 0; a < 3; ++a) d2 += (y[a] - k.centre[a]) * (y[a] - k.centre[a]) * k.inverse_bandwidth[a];
    return d2;
}

// Distance from y to p, on each axis in bandwidths at y's scale; the largest of the three.
double bandwidths_apart(const Point& y, const Point& p, const MeanShiftParams& params) {
    const double scale = std::exp(y[2]);
    return std::max({std::abs(p[0] - y[0]) / (scale * params.sigma_x), std::abs(p[1] - y[1]) / (scale * params.sigma_y),
                     std::abs(p[2] - y[2]) / params.sigma_s});
}

Point shift_to_mode(Point y, const std::vector<Kernel>& kernels, const MeanShiftParams& params) {
    for (int iteration = 0; iteration < params.max_iterations; ++iteration) {
        Point numerator{}, denominator{};
        for (const Kernel& k : kernels) {
            const double w = k.weight * std::exp(-0.5 * distance2(y, k));
            for (int a = 0; a < 3; ++a) {
                numerator[a] += w * k.inverse_bandwidth[a] * k.centre[a];
                denominator[a] += w * k.inverse_bandwidth[a];
            }
        }
        if (!(denominator[0] > 0.0 && denominator[1] > 0.0 && denominator[2] > 0.0)) break;  // far from all
        const Point next{numerator[0] / denominator[0], numerator[1] / denominator[1], numerator[2] / denominator[2]};
        const double moved = bandwidths_apart(next, y, params);
        y = next;
        if (moved < params.tolerance) break;
    }
    return y;
}

}  // namespace

std::vector<Detection> mean_shift_modes(const std::vector<Detection>& detections, Size window,
                                        const MeanShiftParams& params) {
    std::vector<Detection> sorted = detections;
    std::sort(sorted.begin(), sorted.end(), [](const Detection& a, const Detection& b) {
        return a.rect < b.rect || (!(b.rect < a.rect) && a.score < b.score);
    });

    std::vector<Kernel> kernels;
    for (const Detection& d : sorted) {
        const double t = params.use_scores ? std::max(static_cast<double>(d.score), 0.0) : 1.0;
        if (t <= 0.0) continue;
        const double scale = static_cast<double>(d.rect.width) / window.width;
        const double bx = scale * params.sigma_x, by = scale * params.sigma_y, bs = params.sigma_s;
        kernels.push_back({{d.rect.x + 0.5 * d.rect.width, d.rect.y + 0.5 * d.rect.height, std::log(scale)},
                           {1.0 / (bx * bx), 1.0 / (by * by), 1.0 / (bs * bs)},
                           t,
                           t / (bx * by * bs)});
    }

    std::vector<Point> modes;
    for (const Kernel& start : kernels) {
        const Point y = shift_to_mode(start.centre, kernels, params);
        const bool known = std::any_of(modes.begin(), modes.end(),
                                       [&](const Point& m) { return bandwidths_apart(m, y, params) < 1.0; });
        if (!known) modes.push_back(y);
    }

    std::vector<Detection> out;
    for (const Point& m : modes) {
        double support = 0.0;
        for (const Kernel& k : kernels) support += k.t * std::exp(-0.5 * distance2(m, k));
        const double scale = std::exp(m[2]);
        const int w = static_cast<int>(std::lround(window.width * scale));
        const int h = static_cast<int>(std::lround(window.height * scale));
        out.push_back({{static_cast<int>(std::lround(m[0] - 0.5 * w)), static_cast<int>(std::lround(m[1] - 0.5 * h)), w, h},
                       static_cast<float>(support)});
    }
    std::sort(out.begin(), out.end(), [](const Detection& a, const Detection& b) {
        return a.score > b.score || (a.score == b.score && a.rect < b.rect);
    });
    return out;
}

}  // namespace cascade
