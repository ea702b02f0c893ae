// Hard-negative mining (bootstrapping): windows of object-free images that the current classifier still
// accepts. Shared by every trainer; the classifier is an interface, so the miner knows nothing of features.
//
// Each image's universe is every window at every pyramid scale (common/pyramid.hpp with `scale_factor`) and
// every pixel position (or every multiple of `step`). The miner walks it in a pseudo-random order (train/index_permutation.hpp, keyed by
// seed and image; short runs along a row, for cache locality, in random order) and remembers only how far it
// has got per image, so no window is scanned twice and none is skipped. Images are visited round-robin in a random
// order; one visit scans an image until it has found `per_image` accepted windows (so that a batch spreads over many
// images while the classifier is still weak) or its universe ends. When every image's universe is used up the miner is
// exhausted and says so, instead of looping for ever. Visits run in chunks of fixed size on all cores and are merged in
// visit order; a visit beyond what a batch needs is rolled back. The result depends on the seed only, not on the thread
// count.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "common/image.hpp"
#include "data/negative_images.hpp"

namespace cascade::train {

struct MiningParams {
    Size window;
    double scale_factor = 1.1;
    int per_image = 16;
    std::uint64_t seed = 1;
    int threads = 0;
    int margin = 0;  // pixels kept around each mined window (families whose features read neighbours)
    int step = 1;    // windows at positions that are multiples of this (a family whose planes are on a grid)
};

// Where a mined window came from, enough to cut it out again (on resume).
struct NegativeWindow {
    int image = 0;
    int level = 0;  // index in pyramid_levels(image size, window, scale_factor)
    int x = 0;
    int y = 0;
};

struct MiningCursor {
    int next = 0;                     // position in the round-robin order of the image to visit next
    std::vector<long long> consumed;  // per image: positions of its walk (train/negative_miner.cpp) done
};

// What the miner asks of a classifier: per pyramid level image, an object that says whether it accepts the
// window whose top-left corner is (x, y). prepare() and accepts() are called from several threads.
class WindowClassifier {
public:
    class Level {
    public:
        virtual ~Level() = default;
        virtual bool accepts(int x, int y) const = 0;
    };
    virtual ~WindowClassifier() = default;
    virtual std::unique_ptr<Level> prepare(const GrayImage& level) const = 0;
};

struct MiningBatch {
    std::vector<NegativeWindow> windows;
    std::vector<GrayImage> crops;  // pixels of `windows`, with the margin of MiningParams
    long long scanned = 0;         // windows classified
    int visits = 0;                // image visits
    bool exhausted = false;        // every window of every image has been scanned
};

class NegativeMiner {
public:
    NegativeMiner(std::vector<data::NegativeImage> images, MiningParams params);

    // Scans from the cursor until `needed` accepted windows are found or every universe is used up.
    MiningBatch mine(int needed, const WindowClassifier& classifier);

    // Cuts windows out again from their provenance, in the given order (decoding each image once).
    std::vector<GrayImage> crop(const std::vector<NegativeWindow>& windows) const;

    // Whether `w` names a window inside one of the images (a checkpoint's provenance is checked with this).
    bool valid(const NegativeWindow& w) const;

    const MiningCursor& cursor() const { return cursor_; }
    // Throws InputError when `cursor` does not fit these images.
    void set_cursor(const MiningCursor& cursor);
    long long universe() const;  // windows in all images

private:
    struct Visit;
    Visit visit(int image, long long start, const WindowClassifier& classifier) const;
    bool used_up(int image) const;

    std::vector<data::NegativeImage> images_;
    MiningParams params_;
    std::vector<int> order_;             // round-robin order of the images
    std::vector<long long> windows_of_;  // universe size per image
    std::vector<long long> walk_of_;     // walk length per image: windows and the gaps of short segments
    MiningCursor cursor_;
};

}  // namespace cascade::train
