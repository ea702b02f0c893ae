// An OpenCV image (1 or 3 channels, 8-bit) as common/template_score.hpp's planes, for the tool and the tests
// (the match library itself has no OpenCV). The split planes live in `storage`, which must outlive them.
#pragma once

#include <opencv2/core.hpp>
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

}  // namespace cascade::match
