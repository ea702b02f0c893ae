#include "common/foagdd_filters.hpp"

#include <cmath>

#include "common/foagdd_pixel.hpp"

namespace cascade {

namespace {

constexpr double kPi = 3.14159265358979323846;

double raw_tap(double sigma, int k, int nx, int ny) {
    const double theta = k * kPi / kFoagddOrientations;
    const double c = std::cos(theta), s = std::sin(theta);
    const double u = nx * c + ny * s, v = -nx * s + ny * c;
    const double g = std::exp(-(kFoagddRho * u * u + v * v / kFoagddRho) / (2.0 * sigma)) / (2.0 * kPi * sigma * sigma);
    return -kFoagddRho * u * g;
}

double lattice_mean(double sigma, int k) {
    double sum = 0.0;
    for (int nx = -kFoagddLattice; nx <= kFoagddLattice; ++nx)
        for (int ny = -kFoagddLattice; ny <= kFoagddLattice; ++ny) sum += raw_tap(sigma, k, nx, ny);
    return sum / ((2 * kFoagddLattice + 1) * (2 * kFoagddLattice + 1));
}

}  // namespace

double foagdd_filter_tap(double sigma, int k, int nx, int ny) {
    return raw_tap(sigma, k, nx, ny) - lattice_mean(sigma, k);
}

std::vector<float> foagdd_taps(int scale) {
    const int r = kFoagddRadius[scale], n = 2 * r + 1;
    const double sigma = kFoagddSigmas[scale];
    std::vector<float> taps(static_cast<std::size_t>(kFoagddOrientations) * n * n);
    for (int k = 0; k < kFoagddOrientations; ++k) {
        const double mean = lattice_mean(sigma, k);
        for (int dx = -r; dx <= r; ++dx)
            for (int dy = -r; dy <= r; ++dy)
                taps[static_cast<std::size_t>(k) * n * n + (dx + r) * n + dy + r] =
                    static_cast<float>(raw_tap(sigma, k, -dy, -dx) - mean);
    }
    return taps;
}

}  // namespace cascade
