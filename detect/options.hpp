// Command line of cascade-detect: what a run was asked to do, parsed and checked.
//
// parse_options reads argv; on --help it prints the help to `help_out` and returns nullopt. Every problem
// (unknown option, bad value, conflicting options) throws UsageError naming the option. Checks that need the
// model (--max-size against the window) or the inputs happen later, where those are known.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "common/geometry.hpp"
#include "common/postprocess.hpp"
#include "detect/backend.hpp"
#include "detect/run_options.hpp"

namespace cascade::detect {

// The options of cascade-detect; the inputs, report and annotation options are RunOptions (detect/run_options.hpp).
struct Options : RunOptions {
    std::optional<std::string> model;  // nullopt: the embedded default model (detect/model_source.hpp)
    std::string backend = "cpu";
    GpuSettings gpu;  // --gpu-pyramid, --compaction
    double scale_factor = 1.1;
    double first_scale = 1.0;  // < 1: upsampled first levels (common/pyramid.hpp)
    int stride = 0;  // 0: OpenCV's rule ("auto")
    Size min_size;   // 0x0: none
    Size max_size;   // 0x0: the image size
    GroupingParams grouping;
    std::optional<float> min_score;  // raw windows scoring below are dropped; nullopt: the model's own threshold
    int threads = 0;  // 0: all cores
};

std::optional<Options> parse_options(int argc, const char* const* argv, std::ostream& help_out);

// The options of one detector from command-line arguments without inputs (the Python module's keywords,
// "--scale-factor", "1.2", ...): the same checks and messages as parse_options; an input or --help is a
// UsageError. The run's options (report, annotation, inputs) are left at their defaults.
Options parse_detector_options(const std::vector<std::string>& args);

const char* grouping_name(Grouping group);

}  // namespace cascade::detect
