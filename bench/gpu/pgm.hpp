// Binary PGM (P5, 8-bit) files: how frames travel to the GPU machine, which has no OpenCV codecs.
//   read_pgm:  requires a P5 file with maxval 255 (comments allowed in the header); throws InputError naming
//              the file otherwise. Ensures an image of the file's size.
//   write_pgm: writes `image` as P5; throws InputError when the file cannot be written.
//   list_pgm:  the .pgm files directly inside `dir`, sorted by name (empty when dir does not exist).
#pragma once

#include <string>
#include <vector>

#include "common/image.hpp"

namespace cascade {

GrayImage read_pgm(const std::string& path);
void write_pgm(const GrayView& image, const std::string& path);
std::vector<std::string> list_pgm(const std::string& dir);

}  // namespace cascade
