// INRIA person annotations (PASCAL Annotation Version 1.00).
//
// Read by hand rather than with std::regex: libstdc++'s regex recurses once per character, so a line of
// some 50,000 characters overflowed the stack.
#include <charconv>
#include <cstdlib>
#include <fstream>
#include <string_view>

#include "common/error.hpp"
#include "data/annotations.hpp"
#include "data/image_files.hpp"

namespace cascade::data {

namespace {

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

void skip_blanks(std::string_view& s) {
    while (!s.empty() && is_blank(s.front())) s.remove_prefix(1);
}

// Consumes `prefix` (after blanks) from `s`; false, `s` unchanged, when it is not there.
bool take(std::string_view& s, std::string_view prefix) {
    std::string_view rest = s;
    skip_blanks(rest);
    if (rest.substr(0, prefix.size()) != prefix) return false;
    s = rest.substr(prefix.size());
    return true;
}

// Consumes an optionally negative decimal integer (after blanks) into `value`; one beyond the range of
// `value` reads as kMaxCoordinate + 1, which the caller refuses.
bool take_int(std::string_view& s, long long& value) {
    skip_blanks(s);
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
    if (end == s.data()) return false;
    if (ec == std::errc::result_out_of_range) value = kMaxCoordinate + 1LL;
    s.remove_prefix(static_cast<std::size_t>(end - s.data()));
    return true;
}

// The image named by "Image filename : "x.png"", or "" when `line` is not such a line.
std::string image_of(std::string_view line) {
    if (!take(line, "Image filename") || !take(line, ":") || !take(line, "\"")) return "";
    const std::size_t quote = line.find('"');
    return quote == std::string_view::npos ? "" : std::string(line.substr(0, quote));
}

// A box line's corners "(x0, y0) - (x1, y1)", after its last ':'; throws InputError when malformed.
Rect box_of(std::string_view line, const std::string& path, int line_number) {
    const std::string where = "line " + std::to_string(line_number) + ": ";
    const std::size_t colon = line.rfind(':');
    std::string_view s = line.substr(colon == std::string_view::npos ? line.size() : colon + 1);
    long long c[4] = {};
    const bool ok = take(s, "(") && take_int(s, c[0]) && take(s, ",") && take_int(s, c[1]) && take(s, ")") &&
                    take(s, "-") && take(s, "(") && take_int(s, c[2]) && take(s, ",") && take_int(s, c[3]) &&
                    take(s, ")");
    if (!ok) throw InputError(path, where + "bounding box is not ': (x0, y0) - (x1, y1)'");
    for (const long long v : c)
        if (std::llabs(v) > kMaxCoordinate)
            throw InputError(path, where + "bounding box has a coordinate beyond +-" + std::to_string(kMaxCoordinate));
    if (c[2] < c[0] || c[3] < c[1]) throw InputError(path, where + "bounding box is inverted");
    // 1-based inclusive corners.
    return {static_cast<int>(c[0] - 1), static_cast<int>(c[1] - 1), static_cast<int>(c[2] - c[0] + 1),
            static_cast<int>(c[3] - c[1] + 1)};
}

}  // namespace

bool is_inria_annotation(const std::string& path) {
    std::ifstream in(path);
    std::string line;
    for (int n = 0; n < 10 && std::getline(in, line); ++n)
        if (line.find("Image filename") != std::string::npos) return true;
    return false;
}

AnnotatedImage read_inria_annotation(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw InputError(path, "cannot open annotation file");
    AnnotatedImage out;
    std::string image;
    int line_number = 0;
    for (std::string line; std::getline(in, line);) {
        ++line_number;
        std::string_view rest = line;
        if (const std::string named = image_of(line); !named.empty())
            image = named;
        else if (take(rest, "Bounding box for object"))
            out.boxes.push_back(box_of(rest, path, line_number));
    }
    if (image.empty()) throw InputError(path, "no 'Image filename' line: not an INRIA annotation file");
    out.path = resolve_relative(image, path);
    return out;
}

}  // namespace cascade::data
