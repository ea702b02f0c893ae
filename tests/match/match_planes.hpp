// Test helper: an OpenCV image (1 or 3 channels, 8-bit) as common/template_score.hpp's planes. The split
// planes live in `storage`, which must outlive the MatchPlanes.
#pragma once

#include <opencv2/core.hpp>
#include <vector>

#include "common/template_score.hpp"

namespace cascade::test {

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

}  // namespace cascade::test
