#include "data/image_files.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>

#include "common/error.hpp"

namespace fs = std::filesystem;

namespace cascade::data {

namespace {

std::string lower_extension(const std::string& path) {
    std::string ext = fs::path(path).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
    return ext;
}

std::string trim(const std::string& s) {
    const auto first = s.find_first_not_of(" \t\r\n");
    if (first == std::string::npos) return {};
    return s.substr(first, s.find_last_not_of(" \t\r\n") - first + 1);
}

}  // namespace

bool has_image_extension(const std::string& path) {
    static const char* const kExtensions[] = {".jpg", ".jpeg", ".png", ".pgm",  ".ppm",
                                              ".pbm", ".bmp",  ".tif", ".tiff", ".webp"};
    const std::string ext = lower_extension(path);
    return std::any_of(std::begin(kExtensions), std::end(kExtensions), [&](const char* e) { return ext == e; });
}

std::vector<std::string> files_in_folder(const std::string& folder, bool (*keep)(const std::string&),
                                         const std::string& what) {
    std::vector<std::string> files;
    std::error_code error;
    for (fs::directory_iterator it(folder, error), end; !error && it != end; it.increment(error))
        if (it->is_regular_file() && keep(it->path().string())) files.push_back(it->path().string());
    if (error) throw InputError(folder, "cannot list folder (" + error.message() + ")");
    if (files.empty()) throw InputError(folder, "folder holds no " + what);
    std::sort(files.begin(), files.end());
    return files;
}

std::vector<std::string> images_in_nested_folders(const std::string& folder, const std::string& what) {
    std::vector<std::string> files;
    std::error_code error;
    for (fs::recursive_directory_iterator it(folder, error), end; !error && it != end; it.increment(error))
        if (it.depth() > 0 && it->is_regular_file() && has_image_extension(it->path().string()))
            files.push_back(it->path().string());
    if (error) throw InputError(folder, "cannot list folder (" + error.message() + ")");
    if (files.empty()) throw InputError(folder, "folder holds no " + what);
    std::sort(files.begin(), files.end());
    return files;
}

std::vector<std::string> read_lines(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw InputError(path, "cannot open file");
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) {
        line = trim(line);
        if (!line.empty() && line[0] != '#') lines.push_back(line);
    }
    return lines;
}

std::string resolve_relative(const std::string& entry, const std::string& base_file) {
    const fs::path p(entry);
    if (p.is_absolute()) return entry;
    fs::path dir = fs::absolute(base_file).parent_path();
    std::error_code error;  // a name the system refuses (too long, say) names no file, rather than throwing
    for (int up = 0; up < 3 && !dir.empty(); ++up, dir = dir.parent_path())
        if (fs::exists(dir / p, error)) return (dir / p).lexically_normal().string();
    throw InputError(base_file, "entry '" + entry + "' names no file (looked beside the file and two folders up)");
}

std::vector<std::string> list_images(const std::string& source) {
    if (fs::is_directory(source)) return files_in_folder(source, has_image_extension, "image files");
    if (!fs::exists(source)) throw InputError(source, "no such file or folder");
    std::vector<std::string> images;
    for (const std::string& line : read_lines(source)) images.push_back(resolve_relative(line, source));
    if (images.empty()) throw InputError(source, "list file names no images");
    return images;
}

}  // namespace cascade::data
