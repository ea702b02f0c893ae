// cascade-keypoints: FOAGDD corners in images, folders, list files and videos (see --help).
// Exit codes: 0 success, 1 bad input file (or any other failure), 2 bad usage; every failure is one line on
// stderr (cli/tool_main.hpp).
#include <iostream>

#include "cli/tool_main.hpp"
#include "detect/library_noise.hpp"
#include "keypoints/options.hpp"
#include "keypoints/run.hpp"

int main(int argc, char** argv) {
    return cascade::cli::run_tool("cascade-keypoints", [&] {
        const auto options = cascade::keypoints::parse_options(argc, argv, std::cout);
        if (!options) return 0;
        cascade::detect::quiet_libraries();
        cascade::keypoints::run(*options);
        return 0;
    });
}
