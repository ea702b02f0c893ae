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

}  // namespace cascade::train
