// Running a built tool as a subprocess in end-to-end tests: temporary folders and files for its inputs and
// outputs, and the check of its one-line errors.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace cascade::test {

// A fresh folder under the system's temporary directory, removed with everything in it.
struct TempDir {
    std::filesystem::path path;
    explicit TempDir(const std::string& prefix = "cascade-test");
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    std::string operator/(const std::string& name) const { return (path / name).string(); }
};

struct ToolResult {
    int code = -1;  // exit code; 128 + signal when killed
    std::string out, err;
    std::vector<std::string> err_lines;
};

// Runs `exe` with `args` (no shell interpretation of them), stdin from /dev/null; stdout and stderr are
// captured through files in a folder of their own, so that folders a test inspects hold only the tool's
// outputs.
ToolResult run_tool(const std::string& exe, const std::vector<std::string>& args);

std::string read_text(const std::filesystem::path& path);
void write_text(const std::string& path, const std::string& text);

// The tools' one-line error contract, as doctest checks: exit code `code`, a single stderr line starting
// with "<tool>: error: " that names `subject`, nothing on stdout.
void check_error(const ToolResult& r, int code, const std::string& tool, const std::string& subject);

// The first `n` files of `folder` (sorted by name) as a list file `name` in `dir`; its path.
std::string list_of_first(const std::string& folder, int n, const TempDir& dir, const std::string& name);

// Every path under `dir`, sorted (empty when it does not exist).
std::vector<std::string> files_under(const std::filesystem::path& dir);

}  // namespace cascade::test
