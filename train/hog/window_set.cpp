#include "train/hog/window_set.hpp"

#include <algorithm>

namespace cascade::train::hog {

WindowSet::WindowSet(Size window)
    : window_(window),
      row_size_((window.width + 1) * kHogBins),
      table_size_(static_cast<std::size_t>(row_size_) * (window.height + 1)),
      plane_size_(static_cast<std::size_t>(window.width) * window.height) {}

const std::uint32_t* WindowSet::source_row(const HogIntegralView& source, int x, int y, int r) {
    return source.data + static_cast<std::ptrdiff_t>(y + r) * source.stride + x * kHogBins;
}

void WindowSet::copy_plane(const GradientView& g, int x, int y, GradientPair* to) const {
    for (int r = 0; r < window_.height; ++r) {
        const GradientPair* from = g.data + static_cast<std::ptrdiff_t>(y + r) * g.stride + x;
        std::copy(from, from + window_.width, to + static_cast<std::size_t>(r) * window_.width);
    }
}

void WindowSet::copy_window(const HogSampler& source, int x, int y, std::size_t i) {
    std::uint32_t* to = data_.data() + i * table_size_;
    for (int r = 0; r <= window_.height; ++r) {
        const std::uint32_t* from = source_row(source.integral, x, y, r);
        std::copy(from, from + row_size_, to + static_cast<std::size_t>(r) * row_size_);
    }
    copy_plane(source.gradients, x, y, gradients_.data() + i * plane_size_);
    copy_plane(source.gamma_gradients, x, y, gamma_gradients_.data() + i * plane_size_);
    std::uint8_t* bins = lbp_bins_.data() + i * plane_size_;
    if (!source.lbp_bins.data) {
        std::fill(bins, bins + plane_size_, std::uint8_t{0});
        lbp_complete_ = false;
        return;
    }
    for (int r = 0; r < window_.height; ++r) {
        const std::uint8_t* from = source.lbp_bins.data + static_cast<std::ptrdiff_t>(y + r) * source.lbp_bins.stride + x;
        std::copy(from, from + window_.width, bins + static_cast<std::size_t>(r) * window_.width);
    }
}

void WindowSet::add(const HogSampler& source, int x, int y) {
    const auto i = static_cast<std::size_t>(size());
    data_.resize(data_.size() + table_size_);
    gradients_.resize(gradients_.size() + plane_size_);
    gamma_gradients_.resize(gamma_gradients_.size() + plane_size_);
    lbp_bins_.resize(lbp_bins_.size() + plane_size_);
    copy_window(source, x, y, i);
}

void WindowSet::replace(int i, const HogSampler& source, int x, int y) {
    copy_window(source, x, y, static_cast<std::size_t>(i));
}

void WindowSet::append(const WindowSet& other, int count) {
    const auto n = static_cast<std::size_t>(count);
    data_.insert(data_.end(), other.data_.begin(), other.data_.begin() + static_cast<std::ptrdiff_t>(n * table_size_));
    const auto planes = static_cast<std::ptrdiff_t>(n * plane_size_);
    gradients_.insert(gradients_.end(), other.gradients_.begin(), other.gradients_.begin() + planes);
    gamma_gradients_.insert(gamma_gradients_.end(), other.gamma_gradients_.begin(), other.gamma_gradients_.begin() + planes);
    lbp_bins_.insert(lbp_bins_.end(), other.lbp_bins_.begin(), other.lbp_bins_.begin() + planes);
    if (count > 0) lbp_complete_ = lbp_complete_ && other.lbp_complete_;
}

namespace {

// The records `indices` of `records` (each `size` elements), in that order.
template <class T>
std::vector<T> kept_records(const std::vector<T>& records, std::size_t size, const std::vector<int>& indices) {
    std::vector<T> kept(indices.size() * size);
    for (std::size_t k = 0; k < indices.size(); ++k) {
        const auto from = records.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(indices[k]) * size);
        std::copy(from, from + static_cast<std::ptrdiff_t>(size), kept.begin() + static_cast<std::ptrdiff_t>(k * size));
    }
    return kept;
}

}  // namespace

void WindowSet::keep(const std::vector<int>& indices) {
    data_ = kept_records(data_, table_size_, indices);
    gradients_ = kept_records(gradients_, plane_size_, indices);
    gamma_gradients_ = kept_records(gamma_gradients_, plane_size_, indices);
    lbp_bins_ = kept_records(lbp_bins_, plane_size_, indices);
}

}  // namespace cascade::train::hog
