// Readers for the annotation formats that mark objects in full images. Each returns the annotated images
// with their boxes in pixel coordinates (x, y = top-left, 0-based) and image paths resolved (see
// image_files.hpp). Syntax errors, boxes of no area and coordinates beyond kMaxCoordinate throw InputError
// naming the file and line.
//
//   INRIA (PASCAL v1.00 text): one file per image, "Image filename : "Train/pos/x.png"" and lines
//     "Bounding box for object N "PASperson" (Xmin, Ymin) - (Xmax, Ymax) : (x0, y0) - (x1, y1)", 1-based
//     inclusive corners.
//   dlib imglab XML: <dataset><images><image file="..."><box top left width height [ignore="1"]/>...; boxes
//     marked ignore are skipped.
//   opencv_createsamples info file: one image per line, "path count x y w h [x y w h ...]".
#pragma once

#include <string>
#include <vector>

#include "common/geometry.hpp"

namespace cascade::data {

// The largest coordinate or size an annotation may give, in pixels (far beyond any image the tools read;
// keeps corner and size arithmetic clear of int overflow).
constexpr int kMaxCoordinate = 1 << 20;

struct AnnotatedImage {
    std::string path;
    std::vector<Rect> boxes;
};

AnnotatedImage read_inria_annotation(const std::string& path);
std::vector<AnnotatedImage> read_dlib_xml(const std::string& path);
std::vector<AnnotatedImage> read_opencv_info(const std::string& path);

// InputError naming the image when one of its boxes lies wholly outside it (`size`: the image's size).
void check_boxes_inside(const AnnotatedImage& image, Size size);

// Whether a text file is an INRIA annotation (it names the image with "Image filename").
bool is_inria_annotation(const std::string& path);

// Whether a line reads as an info-file entry: "path count ...", its second word an integer (read_opencv_info
// checks the numbers that follow).
bool looks_like_info_line(const std::string& line);

// Every annotated image of `source`, images without boxes included (they count for false positives per
// image): a dlib XML file (.xml), an INRIA annotation file, an info file, or a folder or list file of INRIA
// annotation (.txt) files (INRIA's Test/annotations.lst). Throws InputError for a missing source, a syntax
// error, or a source that names no image.
std::vector<AnnotatedImage> read_annotations(const std::string& source);

}  // namespace cascade::data
