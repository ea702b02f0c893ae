#include "cli/tool_main.hpp"

#include <exception>
#include <iostream>

#include "cli/usage_error.hpp"

namespace cascade::cli {

int report_error(const std::string& tool, const std::string& message, int exit_code) {
    std::string line = message;
    for (char& c : line)
        if (c == '\n' || c == '\r') c = ' ';
    while (!line.empty() && line.back() == ' ') line.pop_back();
    std::cerr << tool << ": error: " << line << std::endl;
    return exit_code;
}

int run_tool(const std::string& tool, const std::function<int()>& body) {
    try {
        return body();
    } catch (const UsageError& e) {
        return report_error(tool, e.what(), 2);
    } catch (const std::exception& e) {
        return report_error(tool, e.what(), 1);
    } catch (...) {
        return report_error(tool, "unexpected failure", 1);
    }
}

}  // namespace cascade::cli
