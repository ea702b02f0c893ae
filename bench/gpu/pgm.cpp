#include "bench/gpu/pgm.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>

#include "common/error.hpp"

namespace cascade {

namespace {

// Next header token, skipping whitespace and '#' comments.
std::string token(std::istream& in) {
    std::string t;
    for (int c = in.get(); c != EOF; c = in.get()) {
        if (c == '#') {
            while (c != EOF && c != '\n') c = in.get();
        } else if (std::isspace(c)) {
            if (!t.empty()) return t;
        } else {
            t.push_back(static_cast<char>(c));
        }
    }
    return t;
}

int header_int(std::istream& in, const std::string& path, const char* what) {
    const std::string t = token(in);
    if (t.empty() || !std::all_of(t.begin(), t.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }) ||
        t.size() > 6)
        throw InputError(path, std::string("bad PGM header: ") + what + " '" + t + "'");
    return std::stoi(t);
}

}  // namespace

GrayImage read_pgm(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError(path, "cannot open");
    if (token(in) != "P5") throw InputError(path, "not a binary PGM (P5) file");
    const int width = header_int(in, path, "width"), height = header_int(in, path, "height");
    const int maxval = header_int(in, path, "maxval");
    if (width <= 0 || height <= 0) throw InputError(path, "empty image");
    if (maxval != 255) throw InputError(path, "maxval " + std::to_string(maxval) + " (only 8-bit PGM is supported)");
    GrayImage image(width, height);
    in.read(reinterpret_cast<char*>(image.pixels.data()), static_cast<std::streamsize>(image.pixels.size()));
    if (in.gcount() != static_cast<std::streamsize>(image.pixels.size())) throw InputError(path, "truncated pixel data");
    return image;
}

void write_pgm(const GrayView& image, const std::string& path) {
    std::ofstream out(path, std::ios::binary);
    out << "P5\n" << image.width << " " << image.height << "\n255\n";
    for (int y = 0; y < image.height; ++y)
        out.write(reinterpret_cast<const char*>(image.data + static_cast<std::ptrdiff_t>(y) * image.stride), image.width);
    if (!out) throw InputError(path, "cannot write");
}

std::vector<std::string> list_pgm(const std::string& dir) {
    std::vector<std::string> out;
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec)) return out;
    for (const auto& e : std::filesystem::directory_iterator(dir))
        if (e.is_regular_file() && e.path().extension() == ".pgm") out.push_back(e.path().string());
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace cascade
