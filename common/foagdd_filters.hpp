// The FOAGDD filter bank: first-order anisotropic Gaussian directional derivatives, 8 orientations x 3 scales, as
// the authors' public code builds them (not as printed; docs/keypoints.md): on the lattice n = (n_x row, n_y
// column) in [-15, 15]^2, theta_k = k pi / 8, u = n_x cos + n_y sin, v = -n_x sin + n_y cos,
//   g   = 1 / (2 pi sigma^2) exp(-(rho u^2 + v^2 / rho) / (2 sigma))   (sigma in the exponent as a variance),
//   phi = -rho u g, then phi -= mean(phi),
// with rho = 1.5 and sigma = 1.5, 3, 4.5, in double. The responses are convolutions; the taps stored here are
// flipped, tap(dx, dy) = phi(-dy, -dx), so that foagdd_response correlates.
// The first scale keeps the 19x19 centre (radius 9): every tap outside it is below 1e-8 of the largest, far
// below float rounding of the response (tests/common/test_foagdd.cpp measures the difference); the larger scales,
// computed at candidates only, keep the whole 31x31 lattice.
#pragma once

#include <vector>

namespace cascade {

constexpr double kFoagddRho = 1.5;
constexpr double kFoagddSigmas[3] = {1.5, 3.0, 4.5};
constexpr int kFoagddRadius[3] = {9, 15, 15};
// The authors' threshold 10^8.4, for 0..255 grey input.
constexpr double kFoagddThreshold = 251188643.1509582;

// phi of orientation k at lattice point (nx, ny) for sigma, in double, mean removed over the 31x31 lattice.
double foagdd_filter_tap(double sigma, int k, int nx, int ny);

// The flipped float taps of one scale, orientation-major: taps[k * n * n + (dx + r) * n + dy + r], n = 2 r + 1,
// r = kFoagddRadius[scale].
std::vector<float> foagdd_taps(int scale);

}  // namespace cascade
