#include "tests/support/test_data.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/videoio.hpp>
#include <stdexcept>

namespace fs = std::filesystem;

namespace cascade::test {

static const char* const kOpencvLbp = "/usr/share/opencv4/lbpcascades/";
static const char* const kOpencvSamples = "/usr/share/doc/opencv-doc/examples/data/";

std::optional<std::string> shared_data_dir() {
    const fs::path dir = fs::path(CASCADE_SOURCE_DIR) / ".." / "shared" / "data";
    if (!fs::is_directory(dir)) {
        MESSAGE("SKIP: ../shared/data not found beside the project (" << dir.string() << ")");
        return std::nullopt;
    }
    return fs::canonical(dir).string();
}

std::optional<std::string> system_file(const std::string& path) {
    if (!fs::exists(path)) {
        MESSAGE("SKIP: " << path << " is not installed (apt-get install opencv-data opencv-doc)");
        return std::nullopt;
    }
    return path;
}

std::vector<std::string> opencv_lbp_cascades() {
    std::vector<std::string> out;
    for (const char* name : {"lbpcascade_frontalface.xml", "lbpcascade_frontalface_improved.xml",
                             "lbpcascade_profileface.xml", "lbpcascade_silverware.xml",
                             "lbpcascade_frontalcatface.xml"}) {
        const std::string path = std::string(kOpencvLbp) + name;
        if (fs::exists(path)) out.push_back(path);
    }
    if (out.empty()) MESSAGE("SKIP: no OpenCV LBP cascades under " << kOpencvLbp << " (apt-get install opencv-data)");
    return out;
}

std::vector<std::string> opencv_haar_cascades() {
    const fs::path dir = "/usr/share/opencv4/haarcascades";
    std::vector<std::string> out;
    if (fs::is_directory(dir))
        for (const auto& e : fs::directory_iterator(dir))
            if (e.path().extension() == ".xml") out.push_back(e.path().string());
    std::sort(out.begin(), out.end());
    if (out.empty())
        MESSAGE("SKIP: no OpenCV Haar cascades under " << dir.string() << " (apt-get install opencv-data)");
    return out;
}

std::vector<ImageSource> real_images() {
    std::vector<ImageSource> out;
    for (const char* name : {"messi5.jpg", "basketball1.png", "lena.jpg"}) {
        const std::string path = std::string(kOpencvSamples) + name;
        if (fs::exists(path)) out.push_back({name, path, -1});
    }
    const std::string video = std::string(kOpencvSamples) + "vtest.avi";
    if (fs::exists(video))
        for (int frame : {0, 400}) out.push_back({"vtest.avi#" + std::to_string(frame), video, frame});
    const fs::path data = fs::path(CASCADE_SOURCE_DIR) / ".." / "shared" / "data";
    for (const char* rel : {"negatives", "inria/96X160H96/Train/pos"}) {
        if (!fs::is_directory(data / rel)) continue;
        std::vector<fs::path> files;
        for (const auto& e : fs::directory_iterator(data / rel)) files.push_back(e.path());
        std::sort(files.begin(), files.end());
        for (std::size_t i = 0; i < files.size() && i < 2; ++i)
            out.push_back({std::string(rel) + "/" + files[i].filename().string(), files[i].string(), -1});
    }
    if (out.empty()) MESSAGE("SKIP: no real images found (opencv-doc not installed, ../shared/data absent)");
    return out;
}

cv::Mat load_gray(const ImageSource& source) {
    cv::Mat image;
    if (source.frame >= 0) {
        cv::VideoCapture video(source.path);
        if (!video.isOpened()) throw std::runtime_error("cannot open video " + source.path);
        video.set(cv::CAP_PROP_POS_FRAMES, source.frame);
        video >> image;
    } else {
        image = cv::imread(source.path, cv::IMREAD_COLOR);
    }
    if (image.empty()) throw std::runtime_error("cannot read " + source.label);
    cv::Mat gray;
    cv::cvtColor(image, gray, cv::COLOR_BGR2GRAY);
    return gray;
}

}  // namespace cascade::test
