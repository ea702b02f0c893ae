// cascade-train lbp: WaldBoost training of an LBP cascade (train/lbp/lbp_trainer.hpp) from the command line.
#pragma once

#include "data/progress.hpp"

namespace cascade::train::lbp {

// argv[0] is "lbp". Returns the exit code.
int command(int argc, char** argv);

// The command's work without the tools' error contract (the Python module's train_lbp): throws cli::UsageError
// and InputError as they come; the log lines go to `listener` when it is set. Returns false after --help.
bool run(int argc, const char* const* argv, const data::ProgressListener& listener);

}  // namespace cascade::train::lbp
