// Non-maximum suppression by mean-shift mode finding in (x, y, log scale) (Dalal's thesis, Sec. 3.3 of
// Bilgic 2010): each detection is a point (centre x, centre y, s = log(width / window width)) with the
// bandwidth H_i = diag((e^s_i sigma_x)^2, (e^s_i sigma_y)^2, sigma_s^2), so the spatial kernel grows with the
// detection. From every point, y <- H_h(y) sum_i wbar_i(y) H_i^-1 y_i with
// wbar_i ~ |H_i|^-1/2 t_i exp(-D^2(y, y_i, H_i) / 2) and H_h^-1 = sum_i wbar_i H_i^-1, until it moves less
// than `tolerance` bandwidths. Converged points within one bandwidth of an earlier mode (on every axis) join
// it. t_i = 1 (the thesis's binary cascade) or, with use_scores, max(score, 0).
#pragma once

#include <cmath>
#include <vector>

#include "common/detection.hpp"
#include "common/geometry.hpp"

namespace cascade {

struct MeanShiftParams {
    double sigma_x = 8.0;               // pixels, at the window's own size
    double sigma_y = 16.0;              // pixels, at the window's own size
    double sigma_s = std::log(1.3);     // log scale
    bool use_scores = false;            // weights t_i: 1, or max(score, 0)
    int max_iterations = 100;
    double tolerance = 1e-3;            // in bandwidths
};

// The modes of `detections`, each as the window (of the model's `window` size) at the mode's position and
// scale, rounded to pixels; score = sum_i t_i exp(-D^2 / 2) at the mode, the effective number of windows
// supporting it. Sorted by descending score, then by rectangle; independent of the input order. Requires
// window sizes > 0 and detections of positive width.
std::vector<Detection> mean_shift_modes(const std::vector<Detection>& detections, Size window,
                                        const MeanShiftParams& params = {});

}  // namespace cascade
