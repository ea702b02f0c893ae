#include "cli/output_paths.hpp"

#include <filesystem>

#include "cli/usage_error.hpp"

namespace fs = std::filesystem;

namespace cascade::cli {

void check_writable_path(const std::string& option, const std::string& path) {
    if (path.empty()) return;
    if (fs::is_directory(path)) throw UsageError(option, "'" + path + "' is a folder, not a file");
    const fs::path parent = fs::path(path).parent_path();
    if (!parent.empty() && !fs::is_directory(parent))
        throw UsageError(option, "folder '" + parent.string() + "' does not exist");
}

bool same_file(const std::string& a, const std::string& b) {
    std::error_code error;
    return fs::exists(a, error) && fs::exists(b, error) && fs::equivalent(a, b, error);
}

void check_not_an_input(const std::string& option, const std::string& output, const std::vector<std::string>& inputs) {
    for (const std::string& input : inputs)
        if (same_file(output, input)) throw UsageError(option, "'" + output + "' is an input; it would be overwritten");
}

}  // namespace cascade::cli
