// cascade-train: the toolkit's trainers, one subcommand each, sharing the dataset, progress and checkpoint
// pieces of train/.
#include <cstring>
#include <iostream>

#include "train/hog/hog_trainer_cli.hpp"
#include "train/lbp_command.hpp"

namespace {

struct Command {
    const char* name;
    const char* summary;
    int (*run)(int argc, char** argv);
};

constexpr Command kCommands[] = {
    {"lbp", "WaldBoost cascade of multi-block LBP weak learners (for the LBP detectors)", cascade::train::lbp_command},
    {"hog", "AdaBoost cascade of HoG-block linear SVMs (Bilgic 2010, after Zhu et al. 2006)", cascade::run_hog_trainer},
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
        if (std::strcmp(argv[1], c.name) == 0) return c.run(argc - 1, argv + 1);
    std::cerr << "cascade-train: error: unknown command '" << argv[1] << "' (see cascade-train --help)\n";
    return 2;
}
