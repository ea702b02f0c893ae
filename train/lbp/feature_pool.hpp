// The pool of multi-block LBP features a trainer chooses weak learners from.
//
// A feature is a 3x3 grid of w x h cells at (x, y) inside the window (common/model.hpp's LbpFeature). A 64x128
// window holds 1.8 million of them, far more than can be evaluated on every sample for every weak learner,
// so training draws a fixed random pool: a cell size uniformly among those that fit (so large cells, which
// have few positions, are as likely as small ones), then a position uniformly.
#pragma once

#include <cstdint>
#include <vector>

#include "common/model.hpp"

namespace cascade::train::lbp {

// A feature packed into one integer (for sets and maps of features).
std::uint64_t feature_key(const LbpFeature& f);

// Number of distinct features in `window` whose cells are at least `min_cell` pixels wide and high.
long long count_lbp_features(Size window, int min_cell = 1);

// `count` distinct features drawn under `seed`, sorted by (height, width, y, x); every feature when `count` is
// at least count_lbp_features(window, min_cell). Cells narrower or lower than `min_cell` pixels are left out
// (small cells on a large window compare a few pixels: noise that the response tables fit to the training
// crops). Requires a window of at least 3 min_cell x 3 min_cell.
std::vector<LbpFeature> sample_lbp_features(Size window, int count, std::uint64_t seed, int min_cell = 1);

}  // namespace cascade::train::lbp
