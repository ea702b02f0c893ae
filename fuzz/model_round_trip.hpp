// The check every model harness makes of a model that loaded: a valid model packs and unpacks, and saves and
// loads again, to the same packed bytes (docs/model-format.md: a save and a load give back the same bits).
// A difference or an InputError on the way is a finding: the harness aborts.
#pragma once

#include "common/model.hpp"

namespace cascade::fuzz {

void check_round_trip(const Model& model);

}  // namespace cascade::fuzz
