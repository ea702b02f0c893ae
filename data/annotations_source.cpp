// Which annotation format a source is in, and all its images.
#include <filesystem>

#include "common/error.hpp"
#include "data/annotations.hpp"
#include "data/image_files.hpp"

namespace fs = std::filesystem;

namespace cascade::data {

namespace {

bool is_text_file(const std::string& path) { return fs::path(path).extension() == ".txt"; }

}  // namespace

void check_boxes_inside(const AnnotatedImage& image, Size size) {
    for (const Rect& b : image.boxes)
        if (b.x >= size.width || b.y >= size.height || b.x + b.width <= 0 || b.y + b.height <= 0)
            throw InputError(image.path, "annotated box " + std::to_string(b.width) + "x" + std::to_string(b.height) +
                                             " at (" + std::to_string(b.x) + "," + std::to_string(b.y) +
                                             ") lies outside the " + std::to_string(size.width) + "x" +
                                             std::to_string(size.height) + " image");
}

std::vector<AnnotatedImage> read_annotations(const std::string& source) {
    std::vector<AnnotatedImage> out;
    if (fs::is_directory(source)) {
        for (const std::string& file : files_in_folder(source, is_text_file, "INRIA annotation (.txt) files"))
            out.push_back(read_inria_annotation(file));
        return out;
    }
    if (!fs::exists(source)) throw InputError(source, "no such file or folder");
    if (fs::path(source).extension() == ".xml") {
        out = read_dlib_xml(source);
    } else if (is_inria_annotation(source)) {
        out.push_back(read_inria_annotation(source));
    } else {
        const std::vector<std::string> lines = read_lines(source);
        if (!lines.empty() && looks_like_info_line(lines.front())) {
            out = read_opencv_info(source);
        } else {
            for (const std::string& line : lines) {
                const std::string file = resolve_relative(line, source);
                if (!is_inria_annotation(file))
                    throw InputError(source, "entry '" + line + "' is not an INRIA annotation file");
                out.push_back(read_inria_annotation(file));
            }
        }
    }
    if (out.empty()) throw InputError(source, "names no annotated image");
    return out;
}

}  // namespace cascade::data
