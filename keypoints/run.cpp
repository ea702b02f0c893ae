#include "keypoints/run.hpp"

#include "cli/json.hpp"
#include "detect/frame_loop.hpp"
#include "keypoints/finder.hpp"

namespace cascade::keypoints {

void run(const Options& options) {
    const KeypointFinder find = make_finder(options);
    detect::FrameTool tool;
    tool.name = "cascade-keypoints";
    tool.smallest = {kFoagddMinSide, kFoagddMinSide};
    tool.header = {{"detector", cli::json_quoted("foagdd")},
                   {"backend", cli::json_quoted(options.backend)},
                   {"threshold", detect::json_number(options.threshold, 17)},
                   {"points", cli::json_quoted("a corner is the pixel (x, y), w = h = 1; score: its measure")}};
    detect::run_frames(options, tool, [&](const detect::Frame& frame) {
        const cv::Mat& grey = frame.gray;
        const GrayView view{grey.data, grey.cols, grey.rows, static_cast<int>(grey.step)};
        std::vector<Detection> points;
        for (const Keypoint& p : find(view)) points.push_back({{p.x, p.y, 1, 1}, static_cast<float>(p.measure)});
        return points;
    });
}

}  // namespace cascade::keypoints
