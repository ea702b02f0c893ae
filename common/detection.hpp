// One detected window in image coordinates, with the cascade's final sum as its score.
#pragma once

#include "common/geometry.hpp"

namespace cascade {

struct Detection {
    Rect rect;
    float score = 0.f;
};

}  // namespace cascade
