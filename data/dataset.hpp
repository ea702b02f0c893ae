// A trainer's data: positive samples cut to the window, negative images indexed for mining, and optionally a
// held-out part of both for measuring the result (split by source photo for positives, by image for
// negatives; see holdout_split.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/image.hpp"
#include "data/negative_images.hpp"
#include "data/positive_samples.hpp"

namespace cascade::data {

struct DatasetSpec {
    std::vector<std::string> positives;  // sources, see positive_samples.hpp
    std::vector<std::string> negatives;  // folders or list files of images
    CropParams crop;  // window, margin, padding; mirror and jitter for training positives only (seed: `seed`)
    GroupBy group_by = GroupBy::name;    // what makes positives one photo for the hold-out (crop_options.hpp)
    double holdout = 0.0;                // fraction of positive photos and negative images held out
    std::uint64_t seed = 1;
    int threads = 0;
};

struct Dataset {
    std::vector<GrayImage> positives;          // training, window-sized (jittered copies, mirror twins as asked)
    std::vector<std::string> positive_groups;  // source photo of each training positive
    std::vector<NegativeImage> negatives;      // training
    std::vector<GrayImage> heldout_positives;  // window-sized, never mirrored
    std::vector<std::string> heldout_negatives;
    int photos = 0;  // source photos of the positives, all
    int heldout_photos = 0;
    int centred_crops = 0;  // positive crops larger than the window of which only the centre is used (no margin)
    int crops = 0;          // positive crops (not annotated boxes), all
};

// Throws InputError for a missing or empty source, an unreadable image, a crop smaller than the window, a
// window larger than every negative image, or a hold-out that leaves nothing to train on.
Dataset load_dataset(const DatasetSpec& spec);

}  // namespace cascade::data
