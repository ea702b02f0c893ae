#include "train/hog/window_set.hpp"

#include <algorithm>

namespace cascade::train::hog {

WindowSet::WindowSet(Size window)
    : window_(window),
      row_size_((window.width + 1) * kHogBins),
      table_size_(static_cast<std::size_t>(row_size_) * (window.height + 1)) {}

const std::uint32_t* WindowSet::source_row(const HogIntegralView& source, int x, int y, int r) {
    return source.data + static_cast<std::ptrdiff_t>(y + r) * source.stride + x * kHogBins;
}

void WindowSet::add(const HogIntegralView& source, int x, int y) {
    for (int r = 0; r <= window_.height; ++r) {
        const std::uint32_t* from = source_row(source, x, y, r);
        data_.insert(data_.end(), from, from + row_size_);
    }
}

void WindowSet::replace(int i, const HogIntegralView& source, int x, int y) {
    std::uint32_t* to = data_.data() + static_cast<std::size_t>(i) * table_size_;
    for (int r = 0; r <= window_.height; ++r) {
        const std::uint32_t* from = source_row(source, x, y, r);
        std::copy(from, from + row_size_, to + static_cast<std::size_t>(r) * row_size_);
    }
}

void WindowSet::append(const WindowSet& other, int count) {
    data_.insert(data_.end(), other.data_.begin(),
                 other.data_.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(count) * table_size_));
}

void WindowSet::keep(const std::vector<int>& indices) {
    std::vector<std::uint32_t> kept(indices.size() * table_size_);
    for (std::size_t k = 0; k < indices.size(); ++k) {
        const auto from = data_.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(indices[k]) * table_size_);
        std::copy(from, from + static_cast<std::ptrdiff_t>(table_size_), kept.begin() + static_cast<std::ptrdiff_t>(k * table_size_));
    }
    data_.swap(kept);
}

}  // namespace cascade::train::hog
