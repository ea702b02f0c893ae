// Running a built tool as a subprocess in end-to-end tests, and temporary folders for its outputs.
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

// Every path under `dir`, sorted (empty when it does not exist).
std::vector<std::string> files_under(const std::filesystem::path& dir);

}  // namespace cascade::test
