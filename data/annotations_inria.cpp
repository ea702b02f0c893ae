// INRIA person annotations (PASCAL Annotation Version 1.00).
#include <cstdio>
#include <fstream>
#include <regex>

#include "common/error.hpp"
#include "data/annotations.hpp"
#include "data/image_files.hpp"

namespace cascade::data {

bool is_inria_annotation(const std::string& path) {
    std::ifstream in(path);
    std::string line;
    for (int n = 0; n < 10 && std::getline(in, line); ++n)
        if (line.find("Image filename") != std::string::npos) return true;
    return false;
}

AnnotatedImage read_inria_annotation(const std::string& path) {
    static const std::regex kImage(R"(^\s*Image filename\s*:\s*\"([^\"]+)\")");
    static const std::regex kBox(
        R"(^\s*Bounding box for object \d+ .*:\s*\(\s*(-?\d+)\s*,\s*(-?\d+)\s*\)\s*-\s*)"
        R"(\(\s*(-?\d+)\s*,\s*(-?\d+)\s*\))");
    std::ifstream in(path);
    if (!in) throw InputError(path, "cannot open annotation file");
    AnnotatedImage out;
    std::string image;
    int line_number = 0;
    for (std::string line; std::getline(in, line);) {
        ++line_number;
        std::smatch m;
        if (std::regex_search(line, m, kImage)) {
            image = m[1];
        } else if (std::regex_search(line, m, kBox)) {
            const int x0 = std::stoi(m[1]), y0 = std::stoi(m[2]), x1 = std::stoi(m[3]), y1 = std::stoi(m[4]);
            if (x1 < x0 || y1 < y0)
                throw InputError(path, "line " + std::to_string(line_number) + ": bounding box is inverted");
            out.boxes.push_back({x0 - 1, y0 - 1, x1 - x0 + 1, y1 - y0 + 1});  // 1-based inclusive corners
        }
    }
    if (image.empty()) throw InputError(path, "no 'Image filename' line: not an INRIA annotation file");
    out.path = resolve_relative(image, path);
    return out;
}

}  // namespace cascade::data
