// The data cascade-eval measures on: positive crops and person-free images, either everything given
// (holdout 0, a test set of its own) or the part that cascade-train held out for the same sources,
// --holdout, --seed and --group-by (data/holdout_split.hpp's trainer_holdout: crops by source photo, images
// one by one). The positives' and negatives' fractions may differ: positives from another folder than the
// model's are measured whole (0) beside the negatives the model's training held out.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "data/crop_options.hpp"

namespace cascade::eval {

struct TestSet {
    std::vector<std::string> crops;            // positive crops (the window in the centre of each)
    std::vector<std::string> negative_images;  // person-free images
};

struct TestSplit {
    std::vector<std::string> positives, negatives;  // sources (folders or list files)
    double pos_holdout = 0.0, neg_holdout = 0.0;     // in [0, 1)
    std::uint64_t seed = 1;
    data::GroupBy group_by = data::GroupBy::name;
    std::optional<data::Margin> margin;  // crops: the object is the crop minus this, resized to the window
};

// Throws InputError for a missing or empty source, a source of annotated boxes instead of crops, or a split
// that leaves no crop or no image.
TestSet find_test_set(const TestSplit& split);

}  // namespace cascade::eval
