// Expansion of the INPUT arguments into the sequence of files a run reads, before any is decoded.
//
// An argument is a file, a folder (its image files by extension, sorted by name, not recursive) or "@LIST"
// (one path per line, relative to the list's folder; blank lines and lines starting with # skipped; an
// entry may name a file or a folder). Videos are recognised by extension here; FrameReader also tries as a
// video any file that does not decode as an image.
// Throws InputError naming the file for: a missing path, a folder without images, a missing or empty list.
// With `keep_missing` (--skip-bad) a missing path named by an argument or a list is kept as a Source whose
// `problem` says so, for the run to skip; folders and lists themselves must still exist and hold entries.
#pragma once

#include <string>
#include <vector>

namespace cascade::detect {

struct Source {
    std::string path;    // as given, or joined from the folder / list it came from
    bool video = false;  // by extension
    std::string problem;  // why it cannot be read, found before decoding (a missing file); empty: none known
};

std::vector<Source> expand_inputs(const std::vector<std::string>& arguments, bool keep_missing = false);

bool has_image_extension(const std::string& path);
bool has_video_extension(const std::string& path);

}  // namespace cascade::detect
