// cascade-detect: runs a cascade detector over images, folders, list files and videos (see --help).
// Exit codes: 0 success, 1 bad input file (or any other failure), 2 bad usage. Every failure is one line on
// stderr: "cascade-detect: error: <file or option>: <problem>" (cli/tool_main.hpp).
#include <iostream>

#include "cli/tool_main.hpp"
#include "detect/library_noise.hpp"
#include "detect/options.hpp"
#include "detect/run.hpp"

int main(int argc, char** argv) {
    return cascade::cli::run_tool("cascade-detect", [&] {
        const auto options = cascade::detect::parse_options(argc, argv, std::cout);
        if (!options) return 0;
        cascade::detect::quiet_libraries();
        cascade::detect::run(*options);
        return 0;
    });
}
