// Finding and reading the images a trainer learns from.
//
// A source is a folder (its image files, sorted by name) or a list file (one path per line, '#' comments;
// relative paths resolve against the list file's folder, then its parent and grandparent, so that INRIA's
// "Train/pos.lst" with entries "Train/pos/x.png" works from where it lies). Every failure throws InputError
// naming the file: a missing path, an empty folder, an unreadable image.
#pragma once

#include <string>
#include <vector>

#include "common/image.hpp"

namespace cascade::data {

// True when the file name ends in an image extension OpenCV reads (jpg, jpeg, png, pgm, ppm, pbm, bmp, tif,
// tiff, webp; any case).
bool has_image_extension(const std::string& path);

// The files of `folder` whose names satisfy `keep`, sorted; throws InputError when there are none.
std::vector<std::string> files_in_folder(const std::string& folder, bool (*keep)(const std::string&),
                                         const std::string& what);

// The non-empty, non-comment lines of a text file, trimmed.
std::vector<std::string> read_lines(const std::string& path);

// `entry` as written in `base_file` (a list or annotation file), resolved as described above.
std::string resolve_relative(const std::string& entry, const std::string& base_file);

// The image files in the folders nested in `folder`, at any depth, sorted by path (UMIST's person/face/*.pgm);
// throws InputError saying the folder holds no `what` when there are none.
std::vector<std::string> images_in_nested_folders(const std::string& folder, const std::string& what);

// Image paths of a folder or list file.
std::vector<std::string> list_images(const std::string& source);

// The image as 8-bit grey: decoded in colour and converted with BGR2GRAY weights, as cascade-detect does.
GrayImage read_gray(const std::string& path);

}  // namespace cascade::data
