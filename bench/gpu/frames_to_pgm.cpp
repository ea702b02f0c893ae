// cascade-frames-to-pgm OUT_DIR SOURCE...: writes real frames as 8-bit grayscale PGM files for the GPU machine
// (which cannot decode images or video). A SOURCE is an image file, or VIDEO@FIRST:STEP:COUNT for COUNT frames of
// a video starting at FIRST, STEP apart. Output names: <stem>.pgm or <stem>_fNNNN.pgm. Host-only tool of
// tools/gpu-pack; prints one line per file written, exits 1 on any unreadable source.
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/videoio.hpp>
#include <string>

#include "bench/gpu/pgm.hpp"

namespace fs = std::filesystem;

namespace {

void write(const cv::Mat& bgr, const fs::path& out) {
    cv::Mat gray;
    if (bgr.channels() == 1)
        gray = bgr;
    else
        cv::cvtColor(bgr, gray, cv::COLOR_BGR2GRAY);
    cascade::write_pgm({gray.data, gray.cols, gray.rows, static_cast<int>(gray.step)}, out.string());
    std::cout << out.string() << " " << gray.cols << "x" << gray.rows << "\n";
}

bool convert(const std::string& source, const fs::path& dir) {
    const auto at = source.rfind('@');
    if (at == std::string::npos) {
        const cv::Mat image = cv::imread(source, cv::IMREAD_COLOR);
        if (image.empty()) return false;
        write(image, dir / (fs::path(source).stem().string() + ".pgm"));
        return true;
    }
    const std::string video = source.substr(0, at);
    int first = 0, step = 1, count = 1;
    if (std::sscanf(source.c_str() + at + 1, "%d:%d:%d", &first, &step, &count) != 3 || step < 1 || count < 1) return false;
    cv::VideoCapture capture(video);
    if (!capture.isOpened()) return false;
    cv::Mat frame;
    for (int i = 0, written = 0; written < count && capture.read(frame); ++i) {
        if (i < first || (i - first) % step != 0) continue;
        char name[64];
        std::snprintf(name, sizeof name, "_f%04d.pgm", i);
        write(frame, dir / (fs::path(video).stem().string() + name));
        ++written;
    }
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 3) {
        std::cerr << "usage: cascade-frames-to-pgm OUT_DIR IMAGE|VIDEO@FIRST:STEP:COUNT...\n";
        return 2;
    }
    const fs::path dir = argv[1];
    fs::create_directories(dir);
    int status = 0;
    for (int i = 2; i < argc; ++i)
        if (!convert(argv[i], dir)) {
            std::cerr << argv[i] << ": cannot read\n";
            status = 1;
        }
    return status;
}
