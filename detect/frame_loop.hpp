// One run of a frame-by-frame tool (cascade-detect, cascade-match): expand the inputs, decode every frame (ahead,
// on a thread of its own), find what the tool finds on it, then write the report and the annotated outputs.
// Throws UsageError (bad options) or InputError (bad input file); when it throws, no output file, annotated
// image or video has been left behind.
#pragma once

#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "common/detection.hpp"
#include "detect/frames.hpp"
#include "detect/outputs.hpp"
#include "detect/run_options.hpp"

namespace cascade::detect {

struct FrameTool {
    std::string name;                     // "cascade-detect", in warnings
    std::vector<std::string> also_reads;  // files read besides the inputs (model, template): no output may be one
    Size smallest;                        // every input must be at least this large
    std::vector<JsonMember> header;       // the report's own members (outputs.hpp)
    std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();  // the report's "seconds" from
};

using FrameFinder = std::function<std::vector<Detection>(const Frame& frame)>;

void run_frames(const RunOptions& options, const FrameTool& tool, const FrameFinder& find);

}  // namespace cascade::detect
