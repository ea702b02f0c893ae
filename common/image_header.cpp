#include "common/image_header.hpp"

#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <vector>

#include "common/error.hpp"

namespace cascade {

namespace {

constexpr long long kDefaultMaxPixels = 100'000'000;

using Bytes = std::vector<unsigned char>;

std::uint32_t big_endian(const Bytes& b, std::size_t at, int n) {
    std::uint32_t v = 0;
    for (int i = 0; i < n; ++i) v = v << 8 | b[at + i];
    return v;
}

std::uint32_t little_endian(const Bytes& b, std::size_t at, int n) {
    std::uint32_t v = 0;
    for (int i = n - 1; i >= 0; --i) v = v << 8 | b[at + i];
    return v;
}

bool starts_with(const Bytes& b, const char* magic, std::size_t at = 0) {
    const std::size_t n = std::strlen(magic);
    return b.size() >= at + n && std::memcmp(b.data() + at, magic, n) == 0;
}

Size size_of(std::uint32_t width, std::uint32_t height) {
    constexpr std::uint32_t kMax = 1u << 30;  // kept clear of int overflow; any such size is refused anyway
    return {static_cast<int>(width < kMax ? width : kMax), static_cast<int>(height < kMax ? height : kMax)};
}

// JPEG: the first start-of-frame segment (SOF0..SOF15 but DHT, JPG and DAC) after the segments before it.
std::optional<Size> jpeg_size(std::ifstream& in) {
    Bytes b(4);
    in.seekg(2);
    while (in.read(reinterpret_cast<char*>(b.data()), 2)) {
        if (b[0] != 0xFF) return std::nullopt;
        const unsigned marker = b[1];
        if (marker == 0xFF) {  // fill byte
            in.seekg(-1, std::ios::cur);
            continue;
        }
        if (marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7)) continue;  // no length
        if (!in.read(reinterpret_cast<char*>(b.data()), 2)) return std::nullopt;
        const std::uint32_t length = big_endian(b, 0, 2);
        if (length < 2) return std::nullopt;
        if (marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC) {
            Bytes sof(5);
            if (!in.read(reinterpret_cast<char*>(sof.data()), 5)) return std::nullopt;
            return size_of(big_endian(sof, 3, 2), big_endian(sof, 1, 2));
        }
        in.seekg(length - 2, std::ios::cur);
    }
    return std::nullopt;
}

// PNM: "P1".."P6", then width and height in decimal, separated by whitespace and '#' comments.
std::optional<Size> pnm_size(const Bytes& b) {
    std::size_t i = 2;
    std::uint32_t v[2] = {};
    for (std::uint32_t& value : v) {
        while (i < b.size() && (std::isspace(b[i]) || b[i] == '#'))
            if (b[i] == '#')
                while (i < b.size() && b[i] != '\n') ++i;
            else
                ++i;
        if (i >= b.size() || !std::isdigit(b[i])) return std::nullopt;
        for (; i < b.size() && std::isdigit(b[i]); ++i) value = value > (1u << 30) ? value : value * 10 + (b[i] - '0');
    }
    return size_of(v[0], v[1]);
}

// TIFF: tags 256 (width) and 257 (height) of the first image file directory.
std::optional<Size> tiff_size(std::ifstream& in, bool little) {
    const auto read = [&](std::streamoff at, int n) -> std::optional<std::uint32_t> {
        Bytes b(4);
        in.seekg(at);
        if (!in.read(reinterpret_cast<char*>(b.data()), n)) return std::nullopt;
        return little ? little_endian(b, 0, n) : big_endian(b, 0, n);
    };
    const auto ifd = read(4, 4);
    const auto entries = ifd ? read(*ifd, 2) : std::nullopt;
    if (!entries) return std::nullopt;
    std::uint32_t dims[2] = {0, 0};
    for (std::uint32_t e = 0; e < *entries && e < 1000; ++e) {
        const std::streamoff at = static_cast<std::streamoff>(*ifd) + 2 + 12 * static_cast<std::streamoff>(e);
        const auto tag = read(at, 2), type = read(at + 2, 2);
        if (!tag || !type) return std::nullopt;
        const auto value = read(at + 8, *type == 3 ? 2 : 4);  // SHORT or LONG
        if ((*tag == 256 || *tag == 257) && value) dims[*tag - 256] = *value;
    }
    if (dims[0] == 0 || dims[1] == 0) return std::nullopt;
    return size_of(dims[0], dims[1]);
}

// WebP: the first chunk, lossy (VP8), lossless (VP8L) or extended (VP8X).
std::optional<Size> webp_size(const Bytes& b) {
    if (starts_with(b, "VP8 ", 12) && b.size() >= 30)
        return size_of(little_endian(b, 26, 2) & 0x3FFF, little_endian(b, 28, 2) & 0x3FFF);
    if (starts_with(b, "VP8L", 12) && b.size() >= 25) {
        const std::uint32_t bits = little_endian(b, 21, 4);
        return size_of((bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1);
    }
    if (starts_with(b, "VP8X", 12) && b.size() >= 30)
        return size_of(little_endian(b, 24, 3) + 1, little_endian(b, 27, 3) + 1);
    return std::nullopt;
}

}  // namespace

long long max_image_pixels() {
    const char* text = std::getenv("CASCADE_MAX_IMAGE_PIXELS");
    if (!text || !*text) return kDefaultMaxPixels;
    char* end = nullptr;
    const long long v = std::strtoll(text, &end, 10);
    if (*end != '\0' || v < 1)
        throw InputError("CASCADE_MAX_IMAGE_PIXELS", "'" + std::string(text) + "' is not a positive integer");
    return v;
}

std::optional<Size> declared_image_size(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    Bytes b(64);
    in.read(reinterpret_cast<char*>(b.data()), static_cast<std::streamsize>(b.size()));
    b.resize(static_cast<std::size_t>(in.gcount()));
    in.clear();
    if (starts_with(b, "\x89PNG\r\n\x1a\n") && starts_with(b, "IHDR", 12) && b.size() >= 24)
        return size_of(big_endian(b, 16, 4), big_endian(b, 20, 4));
    if (b.size() >= 3 && b[0] == 0xFF && b[1] == 0xD8 && b[2] == 0xFF) return jpeg_size(in);
    if (starts_with(b, "BM") && b.size() >= 26) {
        if (little_endian(b, 14, 4) == 12) return size_of(little_endian(b, 18, 2), little_endian(b, 20, 2));
        const auto height = static_cast<std::int32_t>(little_endian(b, 22, 4));  // negative: rows top-down
        return size_of(little_endian(b, 18, 4), height < 0 ? 0u - static_cast<std::uint32_t>(height)
                                                           : static_cast<std::uint32_t>(height));
    }
    if (b.size() >= 2 && b[0] == 'P' && b[1] >= '1' && b[1] <= '6') return pnm_size(b);
    if (b.size() >= 4 && ((b[0] == 'I' && b[1] == 'I' && b[2] == 42 && b[3] == 0) ||
                         (b[0] == 'M' && b[1] == 'M' && b[2] == 0 && b[3] == 42)))
        return tiff_size(in, b[0] == 'I');
    if (starts_with(b, "RIFF") && starts_with(b, "WEBP", 8)) return webp_size(b);
    return std::nullopt;
}

void check_image_pixels(const std::string& path, Size size) {
    const long long pixels = static_cast<long long>(size.width) * size.height;
    if (pixels > max_image_pixels())
        throw InputError(path, "declares " + std::to_string(size.width) + "x" + std::to_string(size.height) +
                                   " pixels, more than the limit of " + std::to_string(max_image_pixels()) +
                                   " (set CASCADE_MAX_IMAGE_PIXELS to allow more)");
}

void check_image_file_pixels(const std::string& path) {
    if (const std::optional<Size> size = declared_image_size(path)) check_image_pixels(path, *size);
}

}  // namespace cascade
