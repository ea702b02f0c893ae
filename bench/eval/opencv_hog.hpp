// The reference curve of the per-window protocol: OpenCV's HOGDescriptor with its default people detector
// (getDefaultPeopleDetector: Dalal and Triggs' linear SVM on the 3780-D HOG of a 64x128 window, 105 blocks of
// 2x2 cells of 8x8 pixels, L2-Hys, square-root gamma), scored on exactly the windows a cascade is scored on:
//   - positives: each crop's centred window, its gradients taken with the crop's margin as the cascade's are
//     (HOGDescriptor::detect at that one location of the whole crop);
//   - negatives: the same pyramid levels as the cascades (common/pyramid.hpp for a 64x128 window, each level
//     resized from the image with OpenCV's INTER_LINEAR_EXACT, which common/resize_exact.hpp reimplements for
//     the cascades), and on each level the same positions: every stride-th from (0, 0) while the window fits.
// The score is the SVM's decision value (detect's weight, bias included); the work is 105 blocks per window.
//
// Colour: OpenCV's detector is given the colour image, as it is meant to be used (its gradient is the
// strongest of the three channels', as Dalal and Triggs trained it); HogReference::opencv_gray gives it the
// grayscale image that the cascades see instead.
#pragma once

#include <string>

#include "bench/eval/window_scorer.hpp"
#include "common/scan.hpp"

namespace cascade::eval {

enum class HogReference { opencv, opencv_gray };

// "opencv-hog" and "opencv-hog-gray", the names cascade-eval window --reference takes.
const char* reference_name(HogReference which);
// The label of its curve.
std::string reference_label(HogReference which);

// Requires scan.rule.stride > 0.
WindowScorer opencv_hog_scorer(HogReference which, const ScanParams& scan);

}  // namespace cascade::eval
