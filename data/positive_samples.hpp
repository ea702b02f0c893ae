// Positive training samples: where they come from, and their cropping to the detection window.
//
// Sources (find_positives detects the kind):
//   - crops: a folder or list file of images that each hold one object with a margin (INRIA's 96x160 crops
//     with the 64x128 person window in the centre). Without a margin the sample is the window-sized region in
//     the crop's centre, unscaled; with `margin` pixels the crop minus the margin is resized to the window.
//   - annotated full images: an INRIA annotation file or a folder/list of them, a dlib imglab XML file, or an
//     opencv_createsamples info file. Each box is grown by `padding` times its size on each side, widened or
//     heightened about its centre to the window's aspect ratio, cut out (the image's edge pixels repeat where
//     the box leaves the image) and resized to the window.
// A sample's group names the photo it comes from: the source image for annotated boxes, and for crops the file
// stem without trailing lower-case letters (INRIA's crop001001a..f are one photo, mirror twins included), so
// that a held-out split never separates twins.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "common/geometry.hpp"
#include "common/image.hpp"

namespace cascade::data {

struct PositiveSource {
    std::string path;
    std::optional<Rect> box;  // none: the image is a crop
    std::string group;
};

std::vector<PositiveSource> find_positives(const std::string& source);

struct CropParams {
    Size window{64, 128};
    int margin = -1;       // crops: -1 = centre window-sized region; >= 0 = crop minus margin, resized
    double padding = 0.0;  // annotated boxes: growth on each side, as a fraction of the box size
    bool mirror = false;   // add each sample's mirror image
};

struct PositiveSample {
    GrayImage window;
    std::string group;
};

// Decodes and crops every source on all cores; a mirror twin follows its original. Throws InputError for an
// unreadable image or a crop smaller than the window (without margin) or with nothing left inside the margin.
std::vector<PositiveSample> load_positives(const std::vector<PositiveSource>& sources, const CropParams& params,
                                           int threads);

}  // namespace cascade::data
