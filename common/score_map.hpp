// What a template search gives for one template size, on the CPU (match/) and the GPU (gpu/) alike: the score of
// every position, and positions (exact matches).
#pragma once

#include <cstddef>
#include <vector>

namespace cascade {

struct ScoreMap {
    int width = 0;   // positions across: image width - template width + 1 (at step 1)
    int height = 0;  // positions down
    int step = 1;    // image pixels between neighbouring positions
    std::vector<float> scores;  // row-major

    float at(int x, int y) const { return scores[static_cast<std::size_t>(y) * width + x]; }
};

struct MatchPosition {
    int x = 0;
    int y = 0;
};

}  // namespace cascade
