// The CPU reference of template matching (the oracle of the GPU matcher): the score of every position, as
// cv::matchTemplate's result, and the exact matches (TM_SQDIFF == 0) with an early exit per position.
//
// Scores come from common/template_score.hpp: exact integer cross-correlations and integral-image window sums,
// finished in double as OpenCV 4.6 does. OpenCV correlates through a float DFT, so its maps differ from these by
// its rounding (tests/match/test_score_map.cpp states the tolerance).
#pragma once

#include <vector>

#include "common/geometry.hpp"
#include "common/score_map.hpp"
#include "common/template_score.hpp"

namespace cascade::match {

// score_map: requires image and templ with the same channels (1 or 3) and templ no larger than image.
//   ensures: a map of (W - w + 1) x (H - h + 1) scores, OpenCV's TM_* definitions; computed on `threads`
//            cores (0: all), the same map for any count.
ScoreMap score_map(const MatchPlanes& image, const MatchPlanes& templ, MatchMethod method, int threads = 0);

// exact_matches: every top-left position where the window equals the template in every pixel and channel,
//   in row-major order; each position stops at its first differing pixel. Requires as score_map.
std::vector<MatchPosition> exact_matches(const MatchPlanes& image, const MatchPlanes& templ, int threads = 0);

}  // namespace cascade::match
