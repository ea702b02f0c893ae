// The size an image file declares, read from its header before anything is decoded, so that a small file
// declaring 30000x30000 pixels is refused with its name instead of allocating gigabytes.
//
// OpenCV has its own limit (OPENCV_IO_MAX_IMAGE_PIXELS, 2^30 by default) but reads it once when the library
// loads, so a tool cannot lower it, and it leaves the colour image, its grey copy and the pyramid to allocate
// several bytes per pixel each. This reader covers the formats photographs and datasets come in; other
// formats are left to the decoder and OpenCV's limit.
#pragma once

#include <optional>
#include <string>

#include "common/geometry.hpp"

namespace cascade {

// The most pixels the tools decode in one image or video frame: 100 million (10000x10000), or the value of the
// environment variable CASCADE_MAX_IMAGE_PIXELS (a positive integer) where it is set.
long long max_image_pixels();

// Width and height as the header of a PNG, JPEG, BMP, PNM (pbm, pgm, ppm), TIFF or WebP file declares them;
// nullopt for other formats, or a header this reader cannot follow (the decoder then reports the file).
std::optional<Size> declared_image_size(const std::string& path);

// InputError naming `path` when `size` holds more than max_image_pixels().
void check_image_pixels(const std::string& path, Size size);

// check_image_pixels for the size `path`'s header declares, where it can be read.
void check_image_file_pixels(const std::string& path);

}  // namespace cascade
