#include "detect/inputs.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>

#include "common/error.hpp"

namespace fs = std::filesystem;

namespace cascade::detect {

namespace {

const char* const kImageExtensions[] = {".jpg", ".jpeg", ".jpe", ".png", ".bmp", ".dib", ".pgm", ".ppm", ".pbm",
                                        ".pnm", ".pam", ".tif", ".tiff", ".webp", ".jp2", ".sr", ".ras"};
const char* const kVideoExtensions[] = {".avi", ".mp4", ".mkv", ".mov", ".webm"};

std::string lower_extension(const std::string& path) {
    std::string ext = fs::path(path).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
    return ext;
}

template <std::size_t N>
bool is_one_of(const std::string& ext, const char* const (&list)[N]) {
    return std::find(std::begin(list), std::end(list), ext) != std::end(list);
}

void add_folder(const fs::path& folder, std::vector<Source>& out) {
    std::vector<fs::path> images;
    std::error_code error;
    for (fs::directory_iterator it(folder, error), end; !error && it != end; it.increment(error))
        if (it->is_regular_file() && has_image_extension(it->path().string())) images.push_back(it->path());
    if (error) throw InputError(folder.string(), "cannot list the folder (" + error.message() + ")");
    if (images.empty())
        throw InputError(folder.string(), "the folder has no images (.jpg .png .bmp .pgm .tif .webp ...)");
    std::sort(images.begin(), images.end());
    for (const fs::path& image : images) out.push_back({image.string(), false, ""});
}

void add_path(const std::string& path, const std::string& listed_in, bool keep_missing, std::vector<Source>& out) {
    std::error_code error;
    const fs::file_status status = fs::status(path, error);
    if (!fs::exists(status)) {
        const std::string problem =
            "no such file or folder" + (listed_in.empty() ? "" : " (listed in " + listed_in + ")");
        if (!keep_missing) throw InputError(path, problem);
        out.push_back({path, false, problem});
        return;
    }
    if (fs::is_directory(status))
        add_folder(path, out);
    else
        out.push_back({path, has_video_extension(path), ""});
}

void add_list(const std::string& list, bool keep_missing, std::vector<Source>& out) {
    if (!fs::exists(list)) throw InputError(list, "no such list file");
    if (fs::is_directory(list)) throw InputError(list, "is a folder, not a list file");
    std::ifstream in(list);
    if (!in) throw InputError(list, "cannot read the list file");
    const fs::path base = fs::path(list).parent_path();
    std::string line;
    int line_number = 0, entries = 0;
    while (std::getline(in, line)) {
        ++line_number;
        const auto first = line.find_first_not_of(" \t\r");
        if (first == std::string::npos || line[first] == '#') continue;
        const auto last = line.find_last_not_of(" \t\r");
        const fs::path entry = line.substr(first, last - first + 1);
        const fs::path resolved = entry.is_absolute() || base.empty() ? entry : base / entry;
        add_path(resolved.string(), list + " line " + std::to_string(line_number), keep_missing, out);
        ++entries;
    }
    if (in.bad()) throw InputError(list, "cannot read the list file");
    if (entries == 0) throw InputError(list, "the list file has no entries");
}

}  // namespace

bool has_image_extension(const std::string& path) { return is_one_of(lower_extension(path), kImageExtensions); }
bool has_video_extension(const std::string& path) { return is_one_of(lower_extension(path), kVideoExtensions); }

std::vector<Source> expand_inputs(const std::vector<std::string>& arguments, bool keep_missing) {
    std::vector<Source> out;
    for (const std::string& argument : arguments) {
        if (argument.size() > 1 && argument[0] == '@')
            add_list(argument.substr(1), keep_missing, out);
        else
            add_path(argument, "", keep_missing, out);
    }
    return out;
}

}  // namespace cascade::detect
