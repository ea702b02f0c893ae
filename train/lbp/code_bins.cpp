#include "train/lbp/code_bins.hpp"

#include <stdexcept>

namespace cascade::train::lbp {

namespace {

// 0/1 transitions between neighbouring cells around the circle (the code's bits run clockwise around the
// centre cell, common/lbp_eval.hpp).
int transitions(int code) {
    const int rotated = ((code << 1) | (code >> 7)) & 255;
    int n = 0;
    for (int changed = code ^ rotated; changed != 0; changed &= changed - 1) ++n;
    return n;
}

}  // namespace

CodeBins code_bins(int count) {
    if (count != kLbpCodes && count != 59) throw std::invalid_argument("code_bins: 256 or 59 bins");
    CodeBins bins;
    bins.count = count;
    int next = 0;
    for (int c = 0; c < kLbpCodes; ++c)
        bins.bin[static_cast<std::size_t>(c)] =
            static_cast<std::uint8_t>(count == kLbpCodes || transitions(c) <= 2 ? next++ : count - 1);
    return bins;
}

}  // namespace cascade::train::lbp
