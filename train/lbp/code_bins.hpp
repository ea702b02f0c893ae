// Which LBP codes share one response in a weak learner's table. The table keeps its 256 entries (what the
// detectors look up, CPU and GPU alike), but with fewer bins the codes of a bin get one response, fitted on
// the samples of all of them: fewer values to fit per weak learner, so less to overfit on a few hundred people.
#pragma once

#include <array>
#include <cstdint>

#include "common/lbp_uniform.hpp"
#include "common/model.hpp"

namespace cascade::train::lbp {

struct CodeBins {
    std::array<std::uint8_t, kLbpCodes> bin{};  // per code
    int count = 0;                              // bins 0 .. count-1
};

// Bins of `count` codes: 256 (every code its own bin) or 59 (uniform LBP: common/lbp_uniform.hpp's bins).
// Requires 256 or 59.
CodeBins code_bins(int count);

}  // namespace cascade::train::lbp
