// The negative (object-free) images a trainer mines windows from: their paths and sizes.
//
// The images are decoded once up front, on all cores, to check that every one is readable and to learn its
// size; they are decoded again when mined rather than held in memory (3,000 photographs would take a GiB).
#pragma once

#include <string>
#include <vector>

#include "common/geometry.hpp"

namespace cascade::data {

struct NegativeImage {
    std::string path;
    Size size;
};

// Throws InputError naming the first unreadable image, or `subject` when the window is larger than every
// image (no window could ever be mined).
std::vector<NegativeImage> index_negative_images(const std::vector<std::string>& paths, Size window,
                                                 const std::string& subject, int threads);

}  // namespace cascade::data
