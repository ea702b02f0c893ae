#include "cli/tool_main.hpp"

#include <cstdio>
#include <exception>
#include <iostream>

#include "cli/usage_error.hpp"

namespace cascade::cli {

std::string printable(const std::string& text) {
    std::string out;
    for (const char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if (c == '\n' || c == '\r') {
            out += ' ';
        } else if (u < 0x20 || u == 0x7f) {
            char escaped[8];
            std::snprintf(escaped, sizeof escaped, "\\x%02x", u);
            out += escaped;
        } else {
            out += c;
        }
    }
    return out;
}

int report_error(const std::string& tool, const std::string& message, int exit_code) {
    std::string line = printable(message);
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
