#include "detect/run.hpp"

#include <sstream>

#include "cli/json.hpp"
#include "detect/detector.hpp"
#include "detect/frame_loop.hpp"
#include "detect/model_source.hpp"

namespace cascade::detect {

namespace {

std::string json_parameters(const Options& o) {
    std::ostringstream out;
    out << "{\"scale_factor\": " << json_number(o.scale_factor, 15)
        << ", \"first_scale\": " << json_number(o.first_scale, 15)
        << ", \"stride\": " << (o.stride == 0 ? std::string("\"auto\"") : std::to_string(o.stride))
        << ", \"min_size\": " << json_size(o.min_size) << ", \"max_size\": " << json_size(o.max_size)
        << ", \"group\": \"" << grouping_name(o.grouping.method)
        << "\", \"min_neighbors\": " << o.grouping.min_neighbors
        << ", \"nms_iou\": " << json_number(o.grouping.nms_iou, 7)
        << ", \"min_score\": " << (o.min_score ? json_number(*o.min_score, 9) : std::string("null"))
        << ", \"threads\": " << o.threads
        << ", \"every\": " << o.every << ", \"max_frames\": " << o.max_frames << "}";
    return out.str();
}

std::vector<JsonMember> json_header(const std::string& model, Size window, const Options& o) {
    std::vector<JsonMember> header{{"model", cli::json_quoted(model)}, {"backend", cli::json_quoted(o.backend)}};
    if (o.backend == "gpu")
        header.push_back({"gpu", "{\"pyramid\": " + cli::json_quoted(o.gpu.pyramid) +
                                     ", \"compaction\": " + cli::json_quoted(o.gpu.compaction) +
                                     ", \"devices\": " + cli::json_quoted(cli::device_list_text(o.gpu.devices)) +
                                     ", \"frames_in_flight\": " + std::to_string(o.gpu.frames_in_flight) + "}"});
    header.push_back({"model_window", json_size(window)});
    header.push_back({"parameters", json_parameters(o)});
    return header;
}

}  // namespace

void run(const Options& options) {
    FrameTool tool;
    const PackedModel model = load_detection_model(options.model);
    const Detector detector(model, options);
    tool.name = "cascade-detect";
    if (options.model) tool.also_reads.push_back(*options.model);
    tool.smallest = detector.window();
    tool.header = json_header(model.model.source, detector.window(), options);
    const FrameFinder find{[&](const Frame& frame) { detector.submit(frame.gray); },
                           [&](const Frame& frame) { return detector.take(frame.gray); }, [&] { detector.drain(); },
                           detector.capacity()};
    run_frames(options, tool, find);
}

}  // namespace cascade::detect
