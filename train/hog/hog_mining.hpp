// Bootstrapping (Bilgic 2010, Sec. 5.4): before each stage, the negatives are replaced by false positives of
// the cascade trained so far, mined from the negative images at all scales. For the first stage (no stages
// yet) every window is a false positive, so the same procedure draws random windows.
//
// Why not train/negative_miner.hpp: that miner hands back window-sized pixels, and a HoG window needs the
// integral histograms of its surroundings (see hog_data.hpp). This one cuts each kept window out of its
// pyramid level's integral histograms while it scans the level, so mined windows evaluate exactly as the
// detector evaluates them.
//
// Images are visited in a random order drawn for the stage. Each image is scanned at every pyramid level
// (scale_factor, the detector's pyramid and exact resize), stride `stride`, from a random offset in
// [0, stride)^2 per level, so successive stages see different windows. Of an image's false positives at most
// max(per_image, ceil(count / images)) are kept, a uniform sample (reservoir sampling), so that the negatives
// come from many images.
// Images are scanned in parallel in fixed chunks and the kept windows appended in visiting order until
// `count` are found: the result depends on the seed, not on the number of threads.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "common/model.hpp"
#include "data/negative_images.hpp"
#include "train/hog/window_set.hpp"

namespace cascade::train::hog {

struct MiningOptions {
    int count = 2000;
    int per_image = 8;
    double scale_factor = 1.1;
    int stride = 8;
    std::uint64_t seed = 1;
    int threads = 0;
    bool lbp_bins = false;  // keep the windows' LBP bins too (for LBP-histogram learners to be trained on them)
};

struct MiningReport {
    int requested = 0;
    int found = 0;                     // windows kept (== requested unless the images ran dry)
    int per_image = 0;                 // the cap used
    int images_scanned = 0;
    int images_total = 0;
    std::int64_t windows_scanned = 0;
    std::int64_t false_positives = 0;  // all accepted windows in the scanned images, kept or not
    bool ran_dry() const { return found < requested; }
};

// Replaces `out` with up to options.count false positives of `cascade`. `stage_index` seeds the choices.
// Images are decoded when visited. `on_progress(images_scanned, found)` is called after every chunk.
MiningReport mine_negatives(const HogCascade& cascade, const std::vector<data::NegativeImage>& images, int stage_index,
                            const MiningOptions& options, WindowSet& out,
                            const std::function<void(int, int)>& on_progress);

}  // namespace cascade::train::hog
