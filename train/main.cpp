// cascade-train: the toolkit's trainers, one command each (train/lbp, train/hog, train/cov), sharing the data pieces of
// data/ and the training pieces of train/.
#include <cstring>
#include <iostream>
#include <string>

#include "cli/tool_main.hpp"
#include "train/cov/cov_command.hpp"
#include "train/hog/hog_command.hpp"
#include "train/lbp/lbp_command.hpp"
#include "train/lbp/stage_command.hpp"

namespace {

struct Command {
    const char* name;
    const char* summary;
    bool (*run)(int argc, const char* const* argv, const cascade::data::ProgressListener& listener);
};

constexpr Command kCommands[] = {
    {"lbp", "WaldBoost cascade of multi-block LBP weak learners (for the LBP detectors)", cascade::train::lbp::run},
    {"lbp-opencv", "opencv_traincascade's LBP cascade: stages of subset stumps, written as OpenCV's XML",
     cascade::train::lbp::stage_run},
    {"haar", "opencv_traincascade's Haar cascade: stages of threshold stumps on Lienhart-Maydt features, as OpenCV's XML",
     cascade::train::lbp::haar_run},
    {"hog", "AdaBoost cascade of HoG-block linear SVMs (Bilgic 2010, after Zhu et al. 2006)", cascade::train::hog::run},
    {"cov", "region-covariance cascade: LogitBoost on the Riemannian manifold (Tuzel et al. 2008) or block SVMs",
     cascade::train::cov::run},
};

void usage(std::ostream& out) {
    out << "Usage: cascade-train COMMAND [options]\n\nTrains a boosted cascade detector on the CPU.\n\nCommands:\n";
    for (const Command& c : kCommands) out << "  " << c.name << "    " << c.summary << "\n";
    out << "\nRun 'cascade-train COMMAND --help' for a command's options.\n";
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        usage(std::cerr);
        return 2;
    }
    if (std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0) {
        usage(std::cout);
        return 0;
    }
    for (const Command& c : kCommands)
        if (std::strcmp(argv[1], c.name) == 0)
            return cascade::cli::run_tool(std::string("cascade-train ") + c.name, [&] {
                c.run(argc - 1, argv + 1, {});
                return 0;
            });
    return cascade::cli::report_error("cascade-train", std::string("unknown command '") + argv[1] +
                                                           "' (see cascade-train --help)", 2);
}
