// cascade-train lbp-opencv and haar: opencv_traincascade's LBP and Haar training (train/lbp/stage_trainer.hpp), written as
// OpenCV's cascade XML and the project's XML.
#pragma once

#include "data/progress.hpp"

namespace cascade::train::lbp {

// The command (argv[0] is "lbp-opencv"), without the tools' error contract, which cascade-train's main adds
// (cli::run_tool): throws cli::UsageError and InputError as they come; the log lines go to `listener` when it
// is set (the Python module's train_lbp_opencv), else to stdout. Returns false after --help.
bool stage_run(int argc, const char* const* argv, const data::ProgressListener& listener);

// cascade-train haar (train/haar/haar_stage_features.hpp): the same command over Haar features.
bool haar_run(int argc, const char* const* argv, const data::ProgressListener& listener);

}  // namespace cascade::train::lbp
