// opencv_createsamples' .vec files: window-sized grey samples, as opencv_traincascade -vec reads them.
//
// Layout (little-endian): int32 count, int32 vecsize (width x height of every sample), int16 min, int16 max
// (unused), then per sample one zero byte and vecsize int16 pixel values (0..255), row by row. The file holds
// no width or height: a sample is read for a window whose area is vecsize. A file whose size is not exactly
// what its header announces (truncated, or with bytes past the last sample), a header with a count or
// vecsize below 1, or a pixel value outside 0..255 is refused with InputError naming the file.
#pragma once

#include <string>

#include "common/image.hpp"

namespace cascade::data {

bool is_vec_file(const std::string& path);  // by its extension, .vec

// The number of samples, after checking the header against the file's size.
int vec_sample_count(const std::string& path);

// Sample `index` as a `window`-sized image; InputError when vecsize is not the window's area.
GrayImage read_vec_sample(const std::string& path, int index, Size window);

}  // namespace cascade::data
