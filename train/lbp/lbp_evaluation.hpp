// Per-window measurements of an LBP (or, for positives, a Haar) cascade on held-out data, through the detectors' own code: the shared
// window evaluation for positives, the CPU reference detector (common/lbp_cpu_detector.hpp) for negatives.
#pragma once

#include <string>
#include <vector>

#include "common/image.hpp"
#include "common/model.hpp"

namespace cascade::train::lbp {

// Fraction of the samples whose window the cascade accepts: the window at (ring, ring) of each, with `ring` pixels
// around it (0: window-sized samples).
double window_detection_rate(const LbpCascade& cascade, const std::vector<GrayImage>& windows, int threads,
                             int ring = 0);
// The same for a Haar cascade (a window too flat for the detector's normalisation is not accepted).
double window_detection_rate(const HaarCascade& cascade, const std::vector<GrayImage>& windows, int threads,
                             int ring = 0);

struct NegativeScan {
    long long windows = 0;   // scanned
    long long accepted = 0;  // false positives
    double rate() const { return windows > 0 ? static_cast<double>(accepted) / static_cast<double>(windows) : 0.0; }
};

// Every window of every image at every scale of `scale_factor`, at positions every `stride` pixels of each
// pyramid level, as cascade-detect scans them (before grouping).
NegativeScan scan_negative_images(const LbpCascade& cascade, const std::vector<std::string>& images,
                                  double scale_factor, int stride, int threads);

}  // namespace cascade::train::lbp
