// `cascade-train hog`: trains a HoG cascade (AdaBoost over random HoG-block linear SVMs, Bilgic 2010) and
// writes the project's XML model. argv[0] is the subcommand's name ("hog"); options follow. Returns the exit
// status: 0 done, 1 bad input (one line naming the file or option), 2 bad usage.
#pragma once

#include "data/progress.hpp"

namespace cascade::train::hog {

// The command (argv[0] is "hog"), without the tools' error contract, which cascade-train's main adds
// (cli::run_tool): throws cli::UsageError and InputError as they come; the log lines go to `listener` when it
// is set (the Python module's train_hog), else to stdout. Returns false after --help.
bool run(int argc, const char* const* argv, const data::ProgressListener& listener);

}  // namespace cascade::train::hog
