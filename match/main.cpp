// cascade-match: finds a template in images, folders, list files and videos (see --help).
// Exit codes: 0 success, 1 bad input file (or any other failure), 2 bad usage. Every failure is one line on
// stderr: "cascade-match: error: <file or option>: <problem>" (cli/tool_main.hpp).
#include <iostream>

#include "cli/tool_main.hpp"
#include "detect/library_noise.hpp"
#include "match/options.hpp"
#include "match/run.hpp"

int main(int argc, char** argv) {
    return cascade::cli::run_tool("cascade-match", [&] {
        const auto options = cascade::match::parse_options(argc, argv, std::cout);
        if (!options) return 0;
        cascade::detect::quiet_libraries();
        cascade::match::run(*options);
        return 0;
    });
}
