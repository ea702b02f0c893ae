// Where tests find real data: ../shared/data beside the project, Debian's opencv-data and opencv-doc files.
// Tests that need a file that is absent skip with a message (MESSAGE + return), never pass silently.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace cascade::test {

// ../shared/data relative to the project root, or nullopt with a printed skip message naming what is missing.
std::optional<std::string> shared_data_dir();

// A file from a Debian package (e.g. /usr/share/opencv4/lbpcascades/lbpcascade_frontalface.xml); nullopt
// with a printed skip message if it is not installed.
std::optional<std::string> system_file(const std::string& path);

// OpenCV's LBP cascades shipped in opencv-data that exist on this machine.
std::vector<std::string> opencv_lbp_cascades();
// Every Haar cascade of opencv-data on this machine (both formats), sorted by name.
std::vector<std::string> opencv_haar_cascades();

// Real grayscale test images: opencv-doc samples, frames of vtest.avi, and pictures from ../shared/data
// (whichever exist). Each entry: a label for messages and the file path or "video#frame".
struct ImageSource {
    std::string label;
    std::string path;
    int frame = -1;  // >= 0: that frame of a video file
};
std::vector<ImageSource> real_images();

}  // namespace cascade::test

#include <opencv2/core.hpp>
namespace cascade::test {
// The image (or video frame) as 8-bit grayscale; throws if it cannot be read.
cv::Mat load_gray(const ImageSource& source);
}  // namespace cascade::test
