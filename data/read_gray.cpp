// Decoding an image file (OpenCV) into the toolkit's grey image; on its own, so that what reads only text
// (annotations, list files: image_files.cpp) links without OpenCV, as the fuzz harnesses do.
#include <algorithm>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "common/error.hpp"
#include "common/image_header.hpp"
#include "data/image_files.hpp"

namespace cascade::data {

GrayImage read_gray(const std::string& path) {
    check_image_file_pixels(path);
    const cv::Mat colour = cv::imread(path, cv::IMREAD_COLOR);
    if (colour.empty()) throw InputError(path, "cannot read image (missing, unreadable or not an image)");
    cv::Mat gray;
    cv::cvtColor(colour, gray, cv::COLOR_BGR2GRAY);
    GrayImage out(gray.cols, gray.rows);
    for (int y = 0; y < gray.rows; ++y) std::copy_n(gray.ptr<std::uint8_t>(y), gray.cols, out.row(y));
    return out;
}

}  // namespace cascade::data
