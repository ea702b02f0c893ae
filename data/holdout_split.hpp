// Held-out splits by group: all items of a group (the crops of one source photo, mirror twins included) fall
// on the same side, so that a held-out measurement never sees a near copy of a training sample.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cascade::data {

// For each item, whether its group is held out: round(fraction * groups) of the distinct groups, chosen at
// random under `seed` (the same for every thread count and every order of the items).
std::vector<bool> held_out_by_group(const std::vector<std::string>& groups, double fraction, std::uint64_t seed);

// The trainers' split for a --holdout fraction and --seed: positives grouped by source photo, negative images
// each its own group, each on its own random stream. cascade-train lbp, cascade-train hog and cascade-eval all
// split through here, so that for the same sources, fraction and seed they hold out the same data.
// Each source (each --pos or --neg argument) is split on its own, the flags concatenated in source order:
// adding or removing a source never moves another source's items across the split, so a model trained on
// --neg A --neg B and one trained on --neg A alone hold out the same part of A.
enum class HoldoutOf : std::uint64_t { positives = 11, negatives = 12 };
std::vector<bool> trainer_holdout_by_source(const std::vector<std::vector<std::string>>& groups_per_source,
                                            HoldoutOf what, double fraction, std::uint64_t seed);

}  // namespace cascade::data
