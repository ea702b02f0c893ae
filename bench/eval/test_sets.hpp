// The data cascade-eval measures on: positive crops and person-free images, either everything given
// (holdout 0, a test set of its own) or the part that cascade-train held out for the same sources,
// --holdout and --seed (data/holdout_split.hpp's trainer_holdout: crops by source photo, images one by one).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cascade::eval {

struct TestSet {
    std::vector<std::string> crops;            // positive crops (the window in the centre of each)
    std::vector<std::string> negative_images;  // person-free images
};

// Requires 0 <= holdout < 1. Throws InputError for a missing or empty source, a source of annotated boxes
// instead of crops, or a split that leaves no crop or no image.
TestSet find_test_set(const std::vector<std::string>& positive_sources,
                      const std::vector<std::string>& negative_sources, double holdout, std::uint64_t seed);

}  // namespace cascade::eval
