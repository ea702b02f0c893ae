// opencv_createsamples / opencv_traincascade info files.
#include <sstream>

#include "common/error.hpp"
#include "data/annotations.hpp"
#include "data/image_files.hpp"

namespace cascade::data {

bool looks_like_info_line(const std::string& line) {
    std::istringstream in(line);
    std::string path, token;
    long count = -1;
    if (!(in >> path >> count) || count < 0) return false;
    long numbers = 0;
    while (in >> token) ++numbers;
    return numbers == 4 * count;
}

std::vector<AnnotatedImage> read_opencv_info(const std::string& path) {
    std::vector<AnnotatedImage> out;
    int entry = 0;
    for (const std::string& line : read_lines(path)) {
        ++entry;
        std::istringstream in(line);
        std::string file;
        int count = -1;
        in >> file >> count;
        if (!in || count < 0)
            throw InputError(path, "entry " + std::to_string(entry) + ": expected 'path count x y w h ...'");
        AnnotatedImage image{resolve_relative(file, path), {}};
        for (int i = 0; i < count; ++i) {
            Rect r;
            if (!(in >> r.x >> r.y >> r.width >> r.height))
                throw InputError(path, "entry " + std::to_string(entry) + ": " + std::to_string(count) +
                                           " boxes announced, fewer given");
            image.boxes.push_back(r);
        }
        std::string extra;
        if (in >> extra)
            throw InputError(
                path, "entry " + std::to_string(entry) + ": more numbers than " + std::to_string(count) + " boxes");
        out.push_back(std::move(image));
    }
    return out;
}

}  // namespace cascade::data
