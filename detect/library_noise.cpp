#include "detect/library_noise.hpp"

#include <cstdlib>
#include <opencv2/core/utils/logger.hpp>
#include <unistd.h>

namespace cascade::detect {

void quiet_libraries() {
    cv::utils::logging::setLogLevel(cv::utils::logging::LOG_LEVEL_SILENT);
    ::setenv("OPENCV_FFMPEG_LOGLEVEL", "-8", 0);  // AV_LOG_QUIET; read when OpenCV first uses FFmpeg
}

StderrCapture::StderrCapture() {
    std::fflush(stderr);
    file_ = std::tmpfile();
    if (!file_) return;
    saved_fd_ = ::dup(2);
    if (saved_fd_ < 0 || ::dup2(fileno(file_), 2) < 0) {
        if (saved_fd_ >= 0) ::close(saved_fd_);
        saved_fd_ = -1;
    }
}

StderrCapture::~StderrCapture() {
    restore();
    if (file_) std::fclose(file_);
}

void StderrCapture::restore() {
    if (saved_fd_ < 0) return;
    std::fflush(stderr);
    ::dup2(saved_fd_, 2);
    ::close(saved_fd_);
    saved_fd_ = -1;
}

std::string StderrCapture::text() {
    const bool captured = saved_fd_ >= 0;
    restore();
    if (!captured || !file_) return "";
    std::string all;
    std::rewind(file_);
    char buffer[4096];
    for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, file_)) > 0 && all.size() < 65536;)
        all.append(buffer, n);
    std::size_t begin = 0;
    while (begin < all.size()) {
        std::size_t end = all.find('\n', begin);
        if (end == std::string::npos) end = all.size();
        std::string line = all.substr(begin, end - begin);
        const auto first = line.find_first_not_of(" \t\r");
        if (first != std::string::npos) {
            const auto last = line.find_last_not_of(" \t\r");
            return line.substr(first, last - first + 1);
        }
        begin = end + 1;
    }
    return "";
}

}  // namespace cascade::detect
