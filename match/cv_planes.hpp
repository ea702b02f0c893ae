// An OpenCV image (1 or 3 channels, 8-bit) as common/template_score.hpp's planes, for the tool and the tests
// (the match library itself has no OpenCV). The split planes live in `storage`, which must outlive them.
#pragma once

#include <algorithm>
#include <cstdint>
#include <opencv2/core.hpp>
#include <utility>
#include <vector>

#include "common/geometry.hpp"
#include "common/staging_fill.hpp"
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

// staged_planes: views of the planes split_into lays out in `memory` for a frame of `size` with `channels` colour
//   channels (gpu::CovarianceMatcherGpu::staging's layout): the channels, then grey, each width x height bytes,
//   stride width.
inline std::pair<MatchPlanes, GrayView> staged_planes(int channels, Size size, std::uint8_t* memory) {
    const std::size_t plane = static_cast<std::size_t>(size.width) * size.height;
    MatchPlanes planes;
    planes.channels = channels;
    for (int c = 0; c < channels; ++c) planes.planes[c] = {memory + c * plane, size.width, size.height, size.width};
    return {planes, GrayView{memory + channels * plane, size.width, size.height, size.width}};
}

// split_rows_into: rows [top, top + rows) of `image` (1 or 3 channels, 8-bit) and of `grey` (its grey image, same
//   size) written into staged_planes' planes in `memory`, bands of rows in parallel on OpenCV's threads (a frame
//   split strip by strip while the strips before it are uploaded: gpu::StagingFill).
inline void split_rows_into(const cv::Mat& image, const cv::Mat& grey, std::uint8_t* memory, int top, int rows) {
    const int w = image.cols, channels = image.channels();
    const std::size_t plane = static_cast<std::size_t>(w) * image.rows;
    const int bands = std::min(rows, 4 * std::max(1, cv::getNumThreads()));
    cv::parallel_for_(cv::Range(0, bands), [&](const cv::Range& range) {
        for (int band = range.start; band < range.end; ++band) {
            const int first = top + band * rows / bands, count = top + (band + 1) * rows / bands - first;
            cv::Mat out[4];
            for (int c = 0; c <= channels; ++c)
                out[c] = cv::Mat(count, w, CV_8UC1, memory + c * plane + static_cast<std::size_t>(first) * w);
            if (channels == 1) image.rowRange(first, first + count).copyTo(out[0]);
            else  // writes into out[0..2]: their size and type fit
                cv::split(image.rowRange(first, first + count), out);
            grey.rowRange(first, first + count).copyTo(out[channels]);
        }
    });
}

// split_into: the whole frame by split_rows_into. Returns views of the planes.
inline std::pair<MatchPlanes, GrayView> split_into(const cv::Mat& image, const cv::Mat& grey, std::uint8_t* memory) {
    split_rows_into(image, grey, memory, 0, image.rows);
    return staged_planes(image.channels(), {image.cols, image.rows}, memory);
}

}  // namespace cascade::match
