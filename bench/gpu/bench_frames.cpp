#include "bench/gpu/bench_frames.hpp"

#include <opencv2/imgproc.hpp>

#include "bench/gpu/pgm.hpp"
#include "common/error.hpp"

namespace cascade::bench {

std::vector<std::string> bench_frame_sources(const std::string& data, int max_sources) {
    std::vector<std::string> sources = list_pgm(data + "/frames");
    const std::vector<std::string> extra = list_pgm(data + "/bench-frames");
    sources.insert(sources.end(), extra.begin(), extra.end());
    if (max_sources > 0 && static_cast<int>(sources.size()) > max_sources) sources.resize(max_sources);
    if (sources.empty()) throw InputError(data, "no frames (frames/*.pgm, bench-frames/*.pgm)");
    return sources;
}

std::vector<cv::Mat> load_bench_frames(const std::vector<std::string>& paths, cv::Size size) {
    std::vector<cv::Mat> out;
    for (const std::string& path : paths) {
        const GrayImage image = read_pgm(path);
        const cv::Mat source(image.height, image.width, CV_8UC1, const_cast<std::uint8_t*>(image.pixels.data()));
        // Largest centred crop with the target's aspect ratio.
        const double target = static_cast<double>(size.width) / size.height;
        cv::Rect crop(0, 0, source.cols, source.rows);
        if (static_cast<double>(source.cols) / source.rows > target)
            crop.width = static_cast<int>(source.rows * target + 0.5);
        else
            crop.height = static_cast<int>(source.cols / target + 0.5);
        crop.x = (source.cols - crop.width) / 2;
        crop.y = (source.rows - crop.height) / 2;
        cv::Mat scaled;
        cv::resize(source(crop), scaled, size, 0, 0, size.area() < crop.area() ? cv::INTER_AREA : cv::INTER_LINEAR);
        out.push_back(scaled);
    }
    return out;
}

}  // namespace cascade::bench
