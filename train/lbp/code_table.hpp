// LBP codes of every pool feature on every training sample, computed once per sample from its integral image
// with the detectors' own lbp_code (common/lbp_eval.hpp).
//
// Samples live in slots (positives first, then the negative pool, whose slots are reused as mined negatives
// replace rejected ones). The table is feature-major, code(f, slot) at f * slots + slot, so that fitting a
// weak learner streams one feature's codes; it takes features x slots bytes (20,000 x 6,000 = 120 MB).
#pragma once

#include <cstdint>
#include <vector>

#include "common/image.hpp"
#include "common/model.hpp"

namespace cascade::train::lbp {

class CodeTable {
public:
    CodeTable() = default;
    CodeTable(int features, int slots);

    // Codes of the window-sized images `windows` into `slots` (one slot each), on all cores.
    void fill(const std::vector<LbpFeature>& pool, const std::vector<int>& slots, const std::vector<GrayImage>& windows,
              int threads);

    const std::uint8_t* feature(int f) const { return codes_.data() + static_cast<std::size_t>(f) * slots_; }
    std::uint8_t code(int f, int slot) const { return feature(f)[slot]; }
    void set(int f, int slot, std::uint8_t code) { codes_[static_cast<std::size_t>(f) * slots_ + slot] = code; }
    int features() const { return features_; }
    int slots() const { return slots_; }

private:
    int features_ = 0;
    int slots_ = 0;
    std::vector<std::uint8_t> codes_;
};

}  // namespace cascade::train::lbp
