// cascade-train lbp: WaldBoost training of an LBP cascade (train/lbp/lbp_trainer.hpp) from the command line.
#pragma once

#include "data/progress.hpp"

namespace cascade::train::lbp {

// The command (argv[0] is "lbp"), without the tools' error contract, which cascade-train's main adds
// (cli::run_tool): throws cli::UsageError and InputError as they come; the log lines go to `listener` when it
// is set (the Python module's train_lbp), else to stdout. Returns false after --help.
bool run(int argc, const char* const* argv, const data::ProgressListener& listener);

}  // namespace cascade::train::lbp
