// Where everything of one frame size lives on the device for the HoG detector: the LBP detector's FrameLayout
// (levels = the CPU's pyramid_levels, window positions, block numbering; gpu/frame_layout.hpp) with the
// integral images replaced by the 9 interleaved integral histograms, plus the stacked level images.
//
// Integral histograms: level l's table starts at gpu[l].integral_offset (uint32 words, 128-byte aligned) and
// has (width + 1) x (height + 1) corners of kHogBins words each, bins adjacent: the layout of
// common/hog_features.hpp's HogIntegralView, so integral_stride = kHogBins * (width + 1) words per corner row.
// Level images: one row-stacked buffer, `pitch` bytes per row; row y of level l is row
// gpu[l].first_row + y.
#pragma once

#include <vector>

#include "gpu/frame_layout.hpp"

namespace cascade::gpu {

struct HogFrameLayout {
    FrameLayout base;  // integral_offset / integral_stride / integral_elements in histogram words
    // The column pass's view of the same tables: each a matrix of kHogBins * (width + 1) - 1 columns after
    // column 0 (width) and `height` rows after row 0, one block per kStripWidth columns (first_strip, strips).
    std::vector<GpuLevel> words;
    int word_strips = 0;
    int pitch = 0;  // elements per row of the stacked images: >= every level's width, a multiple of 128
};

// requires: as make_layout (gpu/frame_layout.hpp).
// ensures:  base = make_layout(frame, window, params, rule, exact) with the integral fields as above.
HogFrameLayout make_hog_layout(Size frame, Size window, const PyramidParams& params, const ScanRule& rule);

}  // namespace cascade::gpu
