// One run of a frame-by-frame tool (cascade-detect, cascade-match): expand the inputs, decode every frame (ahead,
// on a thread of its own), find what the tool finds on it (several frames in flight where the finder allows),
// then write the report and the annotated outputs, in input order.
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

// What a tool finds on frames, up to `in_flight` frames at once: submit() frames in input order, take() each
// one's findings in the same order (the frame stays alive until then); drain() drops the frames in flight once
// none is being read any more (run_frames calls it when the run fails).
struct FrameFinder {
    std::function<void(const Frame&)> submit;
    std::function<std::vector<Detection>(const Frame&)> take;
    std::function<void()> drain;
    int in_flight = 1;
};

void run_frames(const RunOptions& options, const FrameTool& tool, const FrameFinder& find);
// One frame at a time: `find` gives each frame's findings.
void run_frames(const RunOptions& options, const FrameTool& tool,
                const std::function<std::vector<Detection>(const Frame& frame)>& find);

}  // namespace cascade::detect
