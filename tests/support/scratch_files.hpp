// Scratch folders, noise images and error messages for the tests of data/ and train/.
#pragma once

#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <string>
#include <vector>

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

// A valid 1x1 PNG whose header (IHDR, its CRC made right) declares width x height: what a decoder allocates
// for before it finds the pixels missing.
inline void write_png_declaring(const std::string& path, std::uint32_t width, std::uint32_t height) {
    std::vector<unsigned char> png;
    cv::imencode(".png", cv::Mat(1, 1, CV_8UC1, cv::Scalar(0)), png);
    const auto put = [&](std::size_t at, std::uint32_t v) {
        for (int i = 0; i < 4; ++i) png[at + i] = static_cast<unsigned char>(v >> (24 - 8 * i));
    };
    put(16, width);
    put(20, height);
    std::uint32_t crc = 0xFFFFFFFFu;  // CRC-32 of the chunk's type and data (bytes 12..28)
    for (std::size_t i = 12; i < 29; ++i) {
        crc ^= png[i];
        for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    put(29, ~crc);
    std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(png.data()),
                                                static_cast<std::streamsize>(png.size()));
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
