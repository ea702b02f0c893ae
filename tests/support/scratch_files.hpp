// Scratch folders, noise images and error messages for the tests of data/ and train/.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <string>

#include "common/error.hpp"

namespace cascade::test {

// A fresh folder under the system's temporary folder, removed with the object.
class ScratchDir {
public:
    explicit ScratchDir(const std::string& name)
        : path_(std::filesystem::temp_directory_path() / ("cascade-" + name + "-" + std::to_string(::getpid()))) {
        std::filesystem::remove_all(path_);
        std::filesystem::create_directories(path_);
    }
    ~ScratchDir() { std::filesystem::remove_all(path_); }
    std::string file(const std::string& name) const { return (path_ / name).string(); }
    std::string path() const { return path_.string(); }

private:
    std::filesystem::path path_;
};

// A grey image of random texture (fixed seed), written as PNG.
inline cv::Mat write_noise_png(const std::string& path, int width, int height, int seed) {
    cv::Mat image(height, width, CV_8UC1);
    cv::RNG rng(static_cast<std::uint64_t>(seed));
    rng.fill(image, cv::RNG::UNIFORM, 0, 256);
    cv::imwrite(path, image);
    return image;
}

// The message of the InputError that `f` throws, or "" when it throws none.
template <class F>
std::string input_error(F&& f) {
    try {
        f();
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

}  // namespace cascade::test
