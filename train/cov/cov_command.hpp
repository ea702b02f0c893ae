// `cascade-train cov`: trains a region-covariance cascade (Tuzel, Porikli and Meer 2008) and writes the
// project's XML model. argv[0] is the subcommand's name ("cov"); options follow.
#pragma once

#include "data/progress.hpp"

namespace cascade::train::cov {

// The command, without the tools' error contract, which cascade-train's main adds (cli::run_tool): throws
// cli::UsageError and InputError as they come; log lines go to `listener` when it is set, else to stdout.
// Returns false after --help.
bool run(int argc, const char* const* argv, const data::ProgressListener& listener);

}  // namespace cascade::train::cov
