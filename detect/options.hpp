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

namespace cascade::detect {

enum class Format { json, csv };

struct Options {
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
    int threads = 0;     // 0: all cores
    std::string output;  // empty: stdout
    Format format = Format::json;
    std::string annotate_dir;    // empty: none
    std::string annotate_video;  // empty: none
    int max_frames = 0;          // per video; 0: all
    int every = 1;               // every N-th video frame
    bool quiet = false;
    bool progress = false;  // progress bar even when stderr is not a terminal
    bool skip_bad = false;  // skip (and report) unreadable, missing or too small inputs rather than stop
    std::vector<std::string> inputs;  // as given; "@FILE" is a list file (--list FILE is appended as "@FILE")
};

std::optional<Options> parse_options(int argc, const char* const* argv, std::ostream& help_out);

const char* grouping_name(Grouping group);
const char* format_name(Format format);

}  // namespace cascade::detect
