// Plain integer geometry shared by host and device code (no OpenCV types in common/ interfaces that the GPU
// library sees).
#pragma once

#include "common/hd.hpp"

namespace cascade {

struct Size {
    int width = 0;
    int height = 0;
};

struct Rect {
    int x = 0;
    int y = 0;
    int width = 0;
    int height = 0;
};

CASCADE_HD bool operator==(const Size& a, const Size& b) { return a.width == b.width && a.height == b.height; }
CASCADE_HD bool operator==(const Rect& a, const Rect& b) {
    return a.x == b.x && a.y == b.y && a.width == b.width && a.height == b.height;
}
CASCADE_HD bool operator!=(const Rect& a, const Rect& b) { return !(a == b); }
// Lexicographic order (x, y, width, height): lets tests compare detection sets independent of thread order.
CASCADE_HD bool operator<(const Rect& a, const Rect& b) {
    if (a.x != b.x) return a.x < b.x;
    if (a.y != b.y) return a.y < b.y;
    if (a.width != b.width) return a.width < b.width;
    return a.height < b.height;
}

}  // namespace cascade
