// The HoG trainer's data: positive crops with their margin and negative images, split into a training and a
// held-out part by the shared rule of data/holdout_split.hpp (positives by source photo, negatives by image).
//
// Why the HoG trainer does not take data/dataset.hpp's window-sized positives: a block touching the window's
// border needs the gradient there, which takes the pixel beyond the border. The detector has that pixel (the
// window lies inside its image), so the trainer keeps it too: it computes the integral histograms of the
// whole crop and cuts the window out of them (window_set.hpp). A window-sized crop would give the border
// pixels one-sided gradients that no window in the detector has.
#pragma once

#include <string>
#include <vector>

#include "common/geometry.hpp"
#include "data/crop_options.hpp"
#include "data/negative_images.hpp"
#include "data/positive_samples.hpp"
#include "train/hog/window_set.hpp"

namespace cascade::train::hog {

struct HogData {
    std::vector<data::PositiveSource> train_positives, held_positives;
    std::vector<data::NegativeImage> train_negatives, held_negatives;
};

// Finds the sources (folders or list files; see data/positive_samples.hpp and data/image_files.hpp) and
// splits them as data/dataset.hpp does for `holdout`, `seed` and `group_by`. Positives must be crops (not annotated
// boxes). Throws InputError for missing or empty sources, unreadable negative images, negatives all smaller
// than the window, or a hold-out that leaves nothing to train on.
HogData find_hog_data(const std::vector<std::string>& positive_sources, const std::vector<std::string>& negative_sources,
                      Size window, double holdout, std::uint64_t seed, int threads,
                      data::GroupBy group_by = data::GroupBy::name);

// Splits `positives` into those that fit the learners and those that calibrate the stage thresholds: the
// crops of round(fraction * photos) of the source photos (mirror twins together), chosen under `seed` on the
// stream the LBP trainer's --calibration uses. Throws InputError when no crop is left to fit.
void split_calibration(const std::vector<data::PositiveSource>& positives, double fraction, std::uint64_t seed,
                       std::vector<data::PositiveSource>& fitting, std::vector<data::PositiveSource>& calibrating);

// The crop at `path`, which must be exactly the window plus the margin on each side (InputError naming the file
// otherwise).
GrayImage read_margined_crop(const std::string& path, Size window, const data::Margin& margin);

// The window at (margin.left, margin.top) of each crop, each followed by that window of its `jitter.copies`
// jittered copies (data/positive_samples.hpp: the crop resampled about its centre, the margin supplying the
// pixels that move in). Every crop must be exactly the window plus the margin on each side (InputError naming
// the file otherwise; every side >= 1); InputError for a bad jitter (data::check_jitter). Each window keeps its
// LBP bins (for a final stage with LBP-histogram learners: 8 KB a window).
WindowSet load_positive_windows(const std::vector<data::PositiveSource>& crops, Size window, const data::Margin& margin,
                                int threads, const data::Jitter& jitter = {});

}  // namespace cascade::train::hog
