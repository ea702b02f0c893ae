#include "tests/support/tool_run.hpp"

#include <doctest/doctest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;

namespace cascade::test {

namespace {

std::string shell_quote(const std::string& s) {
    std::string out = "'";
    for (const char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

}  // namespace

TempDir::TempDir(const std::string& prefix) {
    static int counter = 0;
    path = fs::temp_directory_path() / (prefix + "-" + std::to_string(::getpid()) + "-" + std::to_string(++counter));
    fs::remove_all(path);
    fs::create_directories(path);
}

TempDir::~TempDir() {
    std::error_code error;
    fs::remove_all(path, error);
}

std::string read_text(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

void write_text(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

void check_error(const ToolResult& r, int code, const std::string& tool, const std::string& subject) {
    INFO("stderr: " << r.err);
    CHECK(r.code == code);
    REQUIRE(r.err_lines.size() == 1);
    CHECK(r.err_lines[0].rfind(tool + ": error: ", 0) == 0);
    CHECK(r.err_lines[0].find(subject) != std::string::npos);
    CHECK(r.out.empty());
}

std::string list_of_first(const std::string& folder, int n, const TempDir& dir, const std::string& name) {
    std::vector<std::string> files;
    for (const auto& e : fs::directory_iterator(folder)) files.push_back(e.path().string());
    std::sort(files.begin(), files.end());
    std::string text;
    for (int i = 0; i < n && i < static_cast<int>(files.size()); ++i) text += files[static_cast<std::size_t>(i)] + "\n";
    write_text(dir / name, text);
    return dir / name;
}

ToolResult run_tool(const std::string& exe, const std::vector<std::string>& args) {
    const TempDir logs("tool-logs");
    std::string command = shell_quote(exe);
    for (const std::string& a : args) command += " " + shell_quote(a);
    command += " </dev/null >" + shell_quote(logs / "stdout") + " 2>" + shell_quote(logs / "stderr");
    const int status = std::system(command.c_str());
    ToolResult r;
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    r.out = read_text(logs / "stdout");
    r.err = read_text(logs / "stderr");
    std::istringstream lines(r.err);
    for (std::string line; std::getline(lines, line);) r.err_lines.push_back(line);
    return r;
}

std::vector<std::string> files_under(const fs::path& dir) {
    std::vector<std::string> out;
    if (!fs::exists(dir)) return out;
    for (const auto& entry : fs::recursive_directory_iterator(dir)) out.push_back(entry.path().string());
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace cascade::test
