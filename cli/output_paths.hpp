// Checks of the files a tool is about to write, made before any work so that a run that cannot write its
// result fails at once, and an output never overwrites one of the run's inputs.
#pragma once

#include <string>
#include <vector>

namespace cascade::cli {

// UsageError naming `option` when `path` is a folder or its folder does not exist. An empty path is no output.
void check_writable_path(const std::string& option, const std::string& path);

// Whether `a` and `b` are the same existing file (same device and inode: links and other spellings included).
bool same_file(const std::string& a, const std::string& b);

// UsageError naming `option` when `output` is one of `inputs` ("'x' is an input; it would be overwritten").
void check_not_an_input(const std::string& option, const std::string& output, const std::vector<std::string>& inputs);

}  // namespace cascade::cli
