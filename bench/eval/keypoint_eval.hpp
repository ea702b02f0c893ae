// cascade-eval keypoints: repeatability and localisation error of corner detectors under known transforms
// (the protocol of Schmid et al. 2000 and of Zhang and Sun 2020's comparisons), FOAGDD (the CPU reference,
// common/foagdd_cpu.hpp) against OpenCV's Harris (goodFeaturesToTrack with the Harris measure), Shi-Tomasi
// (goodFeaturesToTrack) and FAST on the same real images.
//
// Each image is transformed by a known map: rotation (15..90 degrees about the centre), uniform scale
// (0.5..1.5), a perspective homography of growing strength, Gaussian noise, JPEG at falling quality, and gain /
// gamma changes of illumination. Each detector runs on the original and the transformed image; the points of
// each that the map keeps inside the other image (3 pixels from its border) are paired by nearest neighbour
// within --eps pixels (one to one, greedily by distance). Repeatability = pairs / min(points in the common
// region); localisation error = mean distance of the pairs. Results are averaged over the images.
// Writes JSON (every detector, transform and strength, with point counts and milliseconds) and a PNG with one
// panel per transform family.
#pragma once

namespace cascade::eval {

// argv[0] is "keypoints". Returns the exit status; throws UsageError or InputError.
int run_keypoint_eval(int argc, char** argv);

}  // namespace cascade::eval
