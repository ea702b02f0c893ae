// cascade-detect: runs a cascade detector over images, folders, list files and videos (see --help).
// Exit codes: 0 success, 1 bad input file (or any other failure), 2 bad usage. Every failure is one line on
// stderr: "cascade-detect: error: <file or option>: <problem>".
#include <exception>
#include <iostream>
#include <string>

#include "common/error.hpp"
#include "detect/library_noise.hpp"
#include "detect/options.hpp"
#include "detect/run.hpp"
#include "detect/usage_error.hpp"

namespace {

int fail(const std::string& message, int code) {
    std::string line = message;
    for (char& c : line)
        if (c == '\n' || c == '\r') c = ' ';
    while (!line.empty() && line.back() == ' ') line.pop_back();
    std::cerr << "cascade-detect: error: " << line << std::endl;
    return code;
}

}  // namespace

int main(int argc, char** argv) {
    try {
        const auto options = cascade::detect::parse_options(argc, argv, std::cout);
        if (!options) return 0;
        cascade::detect::quiet_libraries();
        cascade::detect::run(*options);
        return 0;
    } catch (const cascade::detect::UsageError& e) {
        return fail(e.what(), 2);
    } catch (const std::exception& e) {
        return fail(e.what(), 1);
    } catch (...) {
        return fail("unexpected failure", 1);
    }
}
