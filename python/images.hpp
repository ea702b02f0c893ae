// NumPy arrays in and out.
//
// view_of: the pixels of an image array as an OpenCV header over its memory (no copy): a 2-D uint8 array (any
// row stride, e.g. a slice of a larger image) as CV_8UC1, an (H, W, 3) uint8 BGR array as CV_8UC3. Throws
// TypeError for another dtype and ValueError for another shape, an empty array, pixels that are not adjacent in
// memory (a column step, Fortran order) or an image smaller than `window`. The array must outlive the header
// (the caller holds it). gray_of: the 8-bit gray image detection runs on, the view itself or the BGR view
// converted with OpenCV's BGR2GRAY, as cascade-detect converts the images it reads; it needs no GIL.
// detections_array: an (N, 5) float64 array of (x, y, w, h, score).
#pragma once

#include <opencv2/core/mat.hpp>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <vector>

#include "common/detection.hpp"
#include "common/geometry.hpp"

namespace cascade::python {

cv::Mat view_of(const pybind11::array& image, Size window);
cv::Mat gray_of(const cv::Mat& view);

pybind11::array_t<double> detections_array(const std::vector<Detection>& detections);

// imread(path): the image file as cascade-detect reads it, an (H, W, 3) uint8 BGR array.
void bind_images(pybind11::module_& module);

}  // namespace cascade::python
