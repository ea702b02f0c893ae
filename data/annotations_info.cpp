// opencv_createsamples / opencv_traincascade info files.
#include <charconv>
#include <sstream>

#include "common/error.hpp"
#include "data/annotations.hpp"
#include "data/image_files.hpp"

namespace cascade::data {

namespace {

// Whether `token` is a decimal integer within +-kMaxCoordinate; sets `value`.
bool small_int(const std::string& token, int& value) {
    const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
    return ec == std::errc() && end == token.data() + token.size() && value >= -kMaxCoordinate &&
           value <= kMaxCoordinate;
}

}  // namespace

// "path count ...": the second word an integer. The numbers after it are checked by read_opencv_info, so a
// malformed entry is reported as such rather than read as the name of a listed file.
bool looks_like_info_line(const std::string& line) {
    std::istringstream in(line);
    std::string path, count;
    int n = 0;
    return in >> path >> count && small_int(count, n);
}

std::vector<AnnotatedImage> read_opencv_info(const std::string& path) {
    std::vector<AnnotatedImage> out;
    int entry = 0;
    for (const std::string& line : read_lines(path)) {
        const std::string where = "entry " + std::to_string(++entry) + ": ";
        std::istringstream in(line);
        std::string file, token;
        int count = -1;
        if (!(in >> file >> token) || !small_int(token, count) || count < 0)
            throw InputError(path, where + "expected 'path count x y w h ...'");
        std::vector<int> numbers;
        for (int v = 0; in >> token; numbers.push_back(v))
            if (!small_int(token, v))
                throw InputError(path, where + "'" + token.substr(0, 40) + "' is not an integer within +-" +
                                           std::to_string(kMaxCoordinate));
        if (numbers.size() != 4 * static_cast<std::size_t>(count))
            throw InputError(path, where + std::to_string(count) + " boxes announced (" + std::to_string(4 * count) +
                                       " numbers), " + std::to_string(numbers.size()) + " numbers given");
        AnnotatedImage image{resolve_relative(file, path), {}};
        for (std::size_t i = 0; i < numbers.size(); i += 4) {
            if (numbers[i + 2] < 1 || numbers[i + 3] < 1)
                throw InputError(path, where + "box " + std::to_string(i / 4) + " is empty (" +
                                           std::to_string(numbers[i + 2]) + "x" + std::to_string(numbers[i + 3]) + ")");
            image.boxes.push_back({numbers[i], numbers[i + 1], numbers[i + 2], numbers[i + 3]});
        }
        out.push_back(std::move(image));
    }
    return out;
}

}  // namespace cascade::data
