// Positive training samples: where they come from, and their cropping to the detection window.
//
// Sources (find_positives detects the kind):
//   - crops: a folder or list file of images that each hold one object with a margin (INRIA's 96x160 crops
//     with the 64x128 person window in the centre). A folder without images or annotation files of its own
//     is read with its nested folders (UMIST's person/face/*.pgm). Without a margin the sample is the
//     window-sized region in the crop's centre, unscaled; with a margin (crop_options.hpp, per side) the crop
//     minus the margin is resized to the window.
//   - opencv_createsamples .vec files (data/vec_file.hpp): window-sized crops, each its own group.
//   - annotated full images: an INRIA annotation file or a folder/list of them, a dlib imglab XML file, or an
//     opencv_createsamples info file. Each box is grown by `padding` times its size on each side, widened or
//     heightened about its centre to the window's aspect ratio, cut out (the image's edge pixels repeat where
//     the box leaves the image) and resized to the window.
// Jitter adds shifted and scaled copies of each crop: the whole crop resampled about its centre, so that the
// window shows the person a few pixels off and a little larger or smaller, as a detector's scan with its
// stride and pyramid step sees people; the margin supplies the pixels that move in. An annotated box to be
// jittered is cut with a quarter of its size around it on each side, which is then its margin.
// A sample's group names the photo (or person) it comes from: the source image for annotated boxes, and for
// crops their GroupBy (crop_options.hpp: the file stem without trailing lower-case letters, or the folder),
// so that a held-out split never separates twins.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/geometry.hpp"
#include "common/image.hpp"
#include "data/crop_options.hpp"

namespace cascade::data {

struct PositiveSource {
    std::string path;
    std::optional<Rect> box;  // none: the image is a crop
    std::string group;
    int vec_sample = -1;  // >= 0: sample of the .vec file `path` (data/vec_file.hpp), a window-sized crop
};

std::vector<PositiveSource> find_positives(const std::string& source, GroupBy group_by = GroupBy::name);

// Each copy's shift is uniform in [-shift, shift] window pixels in x and in y, its size factor log-uniform in
// [1 / scale, scale], its rotation uniform in [-rotation, rotation] degrees about the centre; with noise > 0 each
// copy's window pixels get independent Gaussian noise of that standard deviation (a webcam's sensor and
// compression noise, which clean training crops lack), rounded and clamped to 0..255. The draws come from
// (seed, sample index, copy), so they do not depend on the threads.
struct Jitter {
    int copies = 0;      // jittered copies of each crop (0: none)
    double shift = 4.0;  // window pixels; 4 is half the detectors' usual stride of 8
    double scale = 1.1;  // >= 1; 1.1 spans about a pyramid step of 1.2
    std::uint64_t seed = 1;
    double rotation = 0.0;  // degrees, in [0, 45]
    double noise = 0.0;     // grey levels: standard deviation of the Gaussian noise added to each copy's window
};

struct JitterDraw {
    double scale = 1.0;       // the window shows a region this many times its size
    double dx = 0.0, dy = 0.0;  // whose centre is this far from the crop's centre, in window pixels
    double angle = 0.0;         // and which is turned by this many degrees (counter-clockwise in the image)
};

// Throws InputError naming the option (--jitter, --jitter-shift, --jitter-scale, --jitter-rotation,
// --jitter-noise) for a negative count or shift, a scale below 1, a rotation outside [0, 45] degrees or noise
// outside [0, 64] grey levels.
void check_jitter(const Jitter& jitter);

JitterDraw draw_jitter(const Jitter& jitter, int sample, int copy);

// `image` resampled (bilinear, edge pixels repeated) so that the region of size scale x the output about
// centre + (dx, dy) x pixels_per_window_pixel, turned by angle, fills the output, the image's centre staying the centre: a crop
// with the object centred in it stays a crop of the same size, shifted and scaled. For a crop whose window is
// resized from the crop minus a margin, pixels_per_window_pixel is the crop pixels per window pixel.
GrayImage jittered(const GrayImage& image, const JitterDraw& draw, double pixels_per_window_pixel);

struct CropParams {
    Size window{64, 128};
    std::optional<Margin> margin;  // crops: none = centre window-sized region; given = crop minus margin, resized
    double padding = 0.0;  // annotated boxes: growth on each side, as a fraction of the box size
    bool mirror = false;   // add each sample's mirror image
    Jitter jitter;         // add jittered copies (and their mirror images with `mirror`)
};

struct PositiveSample {
    GrayImage window;
    std::string group;
    bool centred = false;  // a crop larger than the window of which only the centre was taken (no margin given)
};

// The window-sized sample of the crop at `path` (no mirror, no jitter), as load_positives cuts it.
GrayImage crop_window(const std::string& path, const CropParams& params);

// Decodes and crops every source on all cores: per source the sample, then its jittered copies, each followed by
// its mirror twin with `mirror`. Throws InputError for an unreadable image, a crop smaller than the window
// (without margin) or with nothing left inside the margin.
std::vector<PositiveSample> load_positives(const std::vector<PositiveSource>& sources, const CropParams& params,
                                           int threads);

}  // namespace cascade::data
