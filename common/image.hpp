// 8-bit grayscale images: a non-owning view (host or device memory) and an owning host buffer.
#pragma once

#include <cstdint>
#include <vector>

#include "common/geometry.hpp"
#include "common/hd.hpp"

namespace cascade {

struct GrayView {
    const std::uint8_t* data = nullptr;
    int width = 0;
    int height = 0;
    int stride = 0;  // bytes per row

    CASCADE_HD std::uint8_t at(int x, int y) const { return data[y * stride + x]; }
    CASCADE_HD Size size() const { return {width, height}; }
};

struct GrayImage {
    int width = 0;
    int height = 0;
    std::vector<std::uint8_t> pixels;  // row-major, stride == width

    GrayImage() = default;
    GrayImage(int w, int h) : width(w), height(h), pixels(static_cast<std::size_t>(w) * h) {}
    GrayView view() const { return {pixels.data(), width, height, width}; }
    std::uint8_t* row(int y) { return pixels.data() + static_cast<std::size_t>(y) * width; }
    Size size() const { return {width, height}; }
};

}  // namespace cascade
