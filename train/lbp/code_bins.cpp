#include "train/lbp/code_bins.hpp"

#include <stdexcept>

#include "common/lbp_uniform.hpp"

namespace cascade::train::lbp {

CodeBins code_bins(int count) {
    if (count != kLbpCodes && count != kLbpUniformBins) throw std::invalid_argument("code_bins: 256 or 59 bins");
    CodeBins bins;
    bins.count = count;
    for (int c = 0; c < kLbpCodes; ++c)
        bins.bin[static_cast<std::size_t>(c)] = static_cast<std::uint8_t>(count == kLbpCodes ? c : lbp_uniform_bin(c));
    return bins;
}

}  // namespace cascade::train::lbp
