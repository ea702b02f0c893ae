// The Haar-like feature sets of Lienhart and Maydt (2002) as opencv_traincascade generates them
// (CvHaarEvaluator::generateFeatures, -mode BASIC|CORE|ALL): for every position and cell size, the upright
// edge features (2 and 3 cells across or down, weights -1 on the whole and +2 or +3 on a cell), the 2x2
// checker (two +2 cells); CORE adds the 4-cell lines (+2 on the middle two) and the centre-surround point
// (+9 on the centre of 3x3 cells); ALL adds the tilted (45 degree) edges and lines. Each is a HaarFeature of
// common/model.hpp, so the detectors' own evaluation (common/haar_eval.hpp) computes its value.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/model.hpp"

namespace cascade::train::haar {

enum class HaarMode { basic, core, all };

// "basic", "core", "all" (or OpenCV's BASIC, CORE, ALL); throws cli::UsageError naming --haar-mode.
HaarMode parse_haar_mode(const std::string& text);
const char* opencv_mode_name(HaarMode mode);

// Every feature of the set inside the window, in OpenCV's order.
std::vector<HaarFeature> haar_features(Size window, HaarMode mode);

// `count` of them chosen at random for `seed` (in OpenCV's order), or all when count is 0 or at least all.
std::vector<HaarFeature> sample_haar_features(Size window, HaarMode mode, int count, std::uint64_t seed);

}  // namespace cascade::train::haar
