// Command line of cascade-keypoints: what a run was asked to do, parsed and checked. parse_options prints the
// help to `help_out` and returns nullopt on --help; every problem throws UsageError naming the option.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>

#include "common/foagdd_filters.hpp"
#include "detect/run_options.hpp"

namespace cascade::keypoints {

struct Options : detect::RunOptions {
    double threshold = kFoagddThreshold;  // on the measure of 0..255 grey input
    std::string backend = "cpu";          // or "gpu"
    int threads = 0;                      // CPU backend; 0: all cores
};

std::optional<Options> parse_options(int argc, const char* const* argv, std::ostream& help_out);

}  // namespace cascade::keypoints
