// Writing files so that a reader never sees half of one: the content goes to a temporary beside the target,
// which is renamed over it only once complete. On failure the temporary is removed and InputError names the
// target.
#pragma once

#include <string>

namespace cascade {

void write_file_atomically(const std::string& path, const std::string& content);

// The temporary name used for `path` (same directory, so the rename stays on one file system); for writers
// that must produce the file themselves (an encoder writing a video) and then call commit_file.
std::string temporary_path_for(const std::string& path);
void commit_file(const std::string& temporary, const std::string& path);

}  // namespace cascade
