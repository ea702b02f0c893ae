// An OpenCV image (1 or 3 channels, 8-bit) as common/template_score.hpp's planes, for the tool and the tests
// (the match library itself has no OpenCV). The split planes live in `storage`, which must outlive them.
#pragma once

#include <algorithm>
#include <cstdint>
#include <opencv2/core.hpp>
#include <utility>
#include <vector>

#include "common/template_score.hpp"

namespace cascade::match {

inline MatchPlanes match_planes(const cv::Mat& image, std::vector<cv::Mat>& storage) {
    cv::split(image, storage);
    MatchPlanes planes;
    planes.channels = image.channels();
    for (int c = 0; c < planes.channels; ++c) {
        const cv::Mat& p = storage[static_cast<std::size_t>(c)];
        planes.planes[c] = {p.data, p.cols, p.rows, static_cast<int>(p.step)};
    }
    return planes;
}

// split_into: `image` (1 or 3 channels, 8-bit) and `grey` (its grey image, same size) written into `memory` as
//   planes of width x height bytes, stride width: the channels, then grey (the layout of
//   gpu::CovarianceMatcherGpu::staging: a frame split straight into pinned memory is not copied again there). Bands of
//   rows in parallel on OpenCV's threads. Returns views of the planes.
inline std::pair<MatchPlanes, GrayView> split_into(const cv::Mat& image, const cv::Mat& grey, std::uint8_t* memory) {
    const int w = image.cols, h = image.rows, channels = image.channels();
    const std::size_t plane = static_cast<std::size_t>(w) * h;
    const int bands = std::min(h, 4 * std::max(1, cv::getNumThreads()));
    cv::parallel_for_(cv::Range(0, bands), [&](const cv::Range& range) {
        for (int band = range.start; band < range.end; ++band) {
            const int top = band * h / bands, rows = (band + 1) * h / bands - top;
            cv::Mat out[4];
            for (int c = 0; c <= channels; ++c)
                out[c] = cv::Mat(rows, w, CV_8UC1, memory + c * plane + static_cast<std::size_t>(top) * w);
            if (channels == 1) image.rowRange(top, top + rows).copyTo(out[0]);
            else cv::split(image.rowRange(top, top + rows), out);  // writes into out[0..2]: their size and type fit
            grey.rowRange(top, top + rows).copyTo(out[channels]);
        }
    });
    MatchPlanes planes;
    planes.channels = channels;
    for (int c = 0; c < channels; ++c) planes.planes[c] = {memory + c * plane, w, h, w};
    return {planes, GrayView{memory + channels * plane, w, h, w}};
}

}  // namespace cascade::match
