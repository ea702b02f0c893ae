// Test helper: planes of a region of consecutive real frames (tests/gpu/gpu_test_data.hpp) as common/'s
// MatchPlanes: plane c is the region at (x, y) of frames[c] (each frame at least that large).
#pragma once

#include <vector>

#include "common/template_score.hpp"
#include "tests/gpu/gpu_test_data.hpp"

namespace cascade::test {

inline MatchPlanes frame_planes(const std::vector<Frame>& frames, int channels, int x, int y, int w, int h) {
    MatchPlanes p;
    p.channels = channels;
    for (int c = 0; c < channels; ++c) {
        const GrayImage& f = frames[static_cast<std::size_t>(c)].image;
        p.planes[c] = {f.pixels.data() + static_cast<std::size_t>(y) * f.width + x, w, h, f.width};
    }
    return p;
}

}  // namespace cascade::test
