#include "data/vec_file.hpp"

#include <cstdint>
#include <fstream>

#include "common/error.hpp"

namespace cascade::data {

namespace {

constexpr long long kHeaderBytes = 12;

struct VecHeader {
    int count = 0;
    int vecsize = 0;
    long long sample_bytes() const { return 1 + 2 * static_cast<long long>(vecsize); }
};

std::int32_t int32_at(const unsigned char* b) {
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(b[0]) | static_cast<std::uint32_t>(b[1]) << 8 |
                                     static_cast<std::uint32_t>(b[2]) << 16 | static_cast<std::uint32_t>(b[3]) << 24);
}

VecHeader read_header(std::ifstream& in, const std::string& path) {
    if (!in) throw InputError(path, "cannot be opened");
    in.seekg(0, std::ios::end);
    const long long size = static_cast<long long>(in.tellg());
    in.seekg(0);
    unsigned char bytes[kHeaderBytes];
    if (size < kHeaderBytes || !in.read(reinterpret_cast<char*>(bytes), kHeaderBytes))
        throw InputError(path, "is not a .vec file: " + std::to_string(size) + " bytes, shorter than its 12-byte header");
    VecHeader h{int32_at(bytes), int32_at(bytes + 4)};
    if (h.count < 1 || h.vecsize < 1)
        throw InputError(path, "is not a .vec file: its header announces " + std::to_string(h.count) +
                                   " samples of " + std::to_string(h.vecsize) + " pixels");
    const long long expected = kHeaderBytes + h.count * h.sample_bytes();
    if (size < expected)
        throw InputError(path, "is truncated: " + std::to_string(size) + " bytes, its header announces " +
                                   std::to_string(h.count) + " samples of " + std::to_string(h.vecsize) +
                                   " pixels (" + std::to_string(expected) + " bytes)");
    if (size > expected)
        throw InputError(path, "is malformed: " + std::to_string(size - expected) + " bytes past the " +
                                   std::to_string(h.count) + " samples its header announces");
    return h;
}

}  // namespace

bool is_vec_file(const std::string& path) {
    return path.size() > 4 && path.compare(path.size() - 4, 4, ".vec") == 0;
}

int vec_sample_count(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return read_header(in, path).count;
}

GrayImage read_vec_sample(const std::string& path, int index, Size window) {
    std::ifstream in(path, std::ios::binary);
    const VecHeader h = read_header(in, path);
    if (static_cast<long long>(window.width) * window.height != h.vecsize)
        throw InputError(path, "holds samples of " + std::to_string(h.vecsize) + " pixels, not the " +
                                   std::to_string(window.width) + "x" + std::to_string(window.height) +
                                   " window's (make it with opencv_createsamples -w " + std::to_string(window.width) +
                                   " -h " + std::to_string(window.height) + ", or train with its window)");
    if (index < 0 || index >= h.count) throw InputError(path, "has no sample " + std::to_string(index));
    std::vector<unsigned char> bytes(static_cast<std::size_t>(h.sample_bytes()));
    in.seekg(kHeaderBytes + index * h.sample_bytes());
    if (!in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(bytes.size())))
        throw InputError(path, "cannot read sample " + std::to_string(index));
    GrayImage out(window.width, window.height);
    for (int i = 0; i < h.vecsize; ++i) {
        const int v = bytes[static_cast<std::size_t>(1 + 2 * i)] | bytes[static_cast<std::size_t>(2 + 2 * i)] << 8;
        if (v > 255)
            throw InputError(path, "is malformed: sample " + std::to_string(index) + " has pixel value " +
                                       std::to_string(v) + " (0..255 expected)");
        out.pixels[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(v);
    }
    return out;
}

}  // namespace cascade::data
