// Per-window evaluation of a HoG cascade on held-out data (the INRIA protocol of Dalal and Triggs): hit rate
// on positive windows, false positives per window (FPPW) on a scan of person-free images, for the cascade cut
// after each number of stages, plus the detector's cost per window.
//
// The negative scan is the CPU detector itself (detect_windows with its statistics), so the numbers describe
// what the detector does. The miss rate at a given FPPW interpolates linearly in log FPPW between the two
// cascade depths around it; it is NaN when even the whole cascade stays above that FPPW.
#pragma once

#include <cstdint>
#include <vector>

#include "common/lbp_cpu_detector.hpp"
#include "common/model.hpp"
#include "data/negative_images.hpp"
#include "train/hog/window_set.hpp"

namespace cascade::train::hog {

struct DepthPoint {
    int stages = 0;
    double hit_rate = 0.0;
    double fppw = 0.0;
};

struct Evaluation {
    int positives = 0;
    int images = 0;
    std::int64_t windows = 0;
    double blocks_per_window = 0.0;
    std::vector<DepthPoint> depths;  // stages = 1 .. all

    double miss_rate_at(double fppw) const;
    // Fraction of negative windows rejected within the first `stages` stages.
    double rejected_within(int stages) const;
};

// Negative images are decoded one at a time.
Evaluation evaluate(const HogCascade& cascade, const WindowSet& positives,
                    const std::vector<data::NegativeImage>& negatives, const ScanParams& scan);

}  // namespace cascade::train::hog
