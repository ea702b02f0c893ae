// Held-out splits by group: all items of a group (the crops of one source photo, mirror twins included) fall
// on the same side, so that a held-out measurement never sees a near copy of a training sample.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cascade::train {

// For each item, whether its group is held out: round(fraction * groups) of the distinct groups, chosen at
// random under `seed` (the same for every thread count and every order of the items).
std::vector<bool> held_out_by_group(const std::vector<std::string>& groups, double fraction, std::uint64_t seed);

// The trainers' split for a --holdout fraction and --seed: positives grouped by source photo, negative images
// each its own group, each on its own random stream. cascade-train lbp, cascade-train hog and cascade-eval all
// split through here, so that for the same sources, fraction and seed they hold out the same data.
enum class HoldoutOf : std::uint64_t { positives = 11, negatives = 12 };
std::vector<bool> trainer_holdout(const std::vector<std::string>& groups, HoldoutOf what, double fraction,
                                  std::uint64_t seed);

}  // namespace cascade::train
