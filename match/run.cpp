#include "match/run.hpp"

#include <sstream>

#include "cli/json.hpp"
#include "common/error.hpp"
#include "detect/frame_loop.hpp"
#include "match/template_set.hpp"

namespace cascade::match {

namespace {

using detect::json_number;

std::string json_parameters(const Options& o) {
    std::ostringstream out;
    out << "{\"top\": " << o.top;
    if (o.covariance)
        out << ", \"features\": \"" << (o.extended ? "extended" : "basic") << "\", \"step\": " << o.step;
    out << ", \"threshold\": " << (o.threshold ? json_number(*o.threshold, 9) : "null")
        << ", \"nms_iou\": " << json_number(o.nms_iou, 7) << ", \"scales\": [";
    for (std::size_t i = 0; i < o.scales.size(); ++i) out << (i ? ", " : "") << json_number(o.scales[i], 15);
    out << "], \"threads\": " << o.threads << ", \"every\": " << o.every << ", \"max_frames\": " << o.max_frames << "}";
    return out.str();
}

}  // namespace

void run(const Options& options) {
    detect::FrameTool tool;
    TemplateSet templates(options);
    tool.name = "cascade-match";
    tool.also_reads.push_back(options.template_path);
    tool.smallest = templates.largest();
    tool.header = {{"template", cli::json_quoted(options.template_path)},
                   {"method", cli::json_quoted(method_name(options))},
                   {"template_size", detect::json_size(templates.size())},
                   {"channels", std::to_string(templates.channels())},
                   {"backend", cli::json_quoted(options.backend)},
                   {"parameters", json_parameters(options)}};
    detect::run_frames(options, tool, [&](const detect::Frame& frame) {
        if (options.covariance && (frame.gray.cols > 4096 || frame.gray.rows > 4096))
            throw InputError(frame.file, "is over 4096 pixels wide or high: region covariance's exact int64 sums "
                                         "are proved for frames up to 4096x4096");
        return templates.find(templates.channels() == 1 ? frame.gray : frame.image, frame.gray);
    });
}

}  // namespace cascade::match
