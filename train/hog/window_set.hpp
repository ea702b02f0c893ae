// Training windows for the HoG trainer: each one the integral histograms and the gradients of one detection
// window, cut out of its image's (or pyramid level's) planes.
//
// A window's (w+1) x (h+1) corners are all that its blocks read, and corner differences do not change when
// the table is cut out (the uint32 sums wrap, differences stay exact), so a stored window evaluates exactly as
// the same window does inside the detector's full table, gradients at its border included (they were taken
// with the image's neighbouring pixels). 65 x 129 x 9 x 4 bytes = 302 KB per 64x128 window. Likewise the
// window's w x h gradients and gamma-corrected gradients (32 KB each), all that its Dalal-Triggs blocks read, and
// its w x h uniform-LBP bins (8 KB), all that its LBP-histogram learners read, when the source planes hold them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/geometry.hpp"
#include "common/hog_features.hpp"

namespace cascade::train::hog {

class WindowSet {
public:
    explicit WindowSet(Size window = {64, 128});

    Size window() const { return window_; }
    int size() const { return static_cast<int>(data_.size() / table_size_); }
    bool empty() const { return data_.empty(); }

    // Appends the window whose top-left corner is (x, y) in `source`'s planes.
    void add(const HogSampler& source, int x, int y);
    // Overwrites window i with the window at (x, y) of `source`.
    void replace(int i, const HogSampler& source, int x, int y);
    void append(const WindowSet& other, int count);  // the first `count` windows of `other`
    void keep(const std::vector<int>& indices);       // keeps those windows, in that order
    void clear() {
        data_.clear();
        gradients_.clear();
        gamma_gradients_.clear();
        lbp_bins_.clear();
        lbp_complete_ = true;
    }
    // True when every window came with its LBP bins (from planes built with them); else view's lbp_bins is empty.
    bool has_lbp_bins() const { return lbp_complete_; }

    // A sampler over window i, whose top-left corner is (0, 0).
    HogSampler view(int i) const {
        const std::size_t plane = static_cast<std::size_t>(i) * plane_size_;
        return {{data_.data() + static_cast<std::size_t>(i) * table_size_, row_size_},
                {gradients_.data() + plane, window_.width},
                {gamma_gradients_.data() + plane, window_.width},
                lbp_complete_ ? LbpBinView{lbp_bins_.data() + plane, window_.width, window_.height, window_.width}
                              : LbpBinView{}};
    }

private:
    static const std::uint32_t* source_row(const HogIntegralView& source, int x, int y, int r);
    // Copies the window at (x, y) of `source` to window i's table and planes.
    void copy_window(const HogSampler& source, int x, int y, std::size_t i);
    // Copies the window at (x, y) of the plane `g` to `to`.
    void copy_plane(const GradientView& g, int x, int y, GradientPair* to) const;

    Size window_;
    int row_size_;            // (width + 1) * kHogBins
    std::size_t table_size_;  // row_size_ * (height + 1)
    std::size_t plane_size_;  // width * height
    std::vector<std::uint32_t> data_;
    std::vector<GradientPair> gradients_, gamma_gradients_;
    std::vector<std::uint8_t> lbp_bins_;  // zeros for a window whose source had none (then lbp_complete_ is false)
    bool lbp_complete_ = true;
};

}  // namespace cascade::train::hog
