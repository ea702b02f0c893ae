// Command-line pieces shared by the trainers' commands (train/lbp/lbp_command.hpp, train/hog/hog_command.hpp):
// the dataset options and option parsing. Each command runs under cli::run_tool ("cascade-train NAME").
#pragma once

#include <boost/program_options.hpp>
#include <string>
#include <vector>

#include "data/dataset.hpp"

namespace cascade::train {

// The options of DatasetSpec (--pos, --neg, --window, --pos-margin, --group-by, --padding, --mirror, --jitter,
// --holdout), bound to `spec` (--pos-margin and --group-by parsed by po::notify) and `window` (cli::parse_size
// after po::notify).
boost::program_options::options_description dataset_options(data::DatasetSpec& spec, std::string& window,
                                                            unsigned line_length,
                                                            const std::string& default_window = "64x128");

// UsageError for what dataset_options accept but cannot mean: no --pos or --neg, --padding outside [0, 10],
// --holdout outside [0, 1) (a negative --pos-margin is refused as it is parsed).
void check_dataset_options(const data::DatasetSpec& spec);

// UsageError, before any training, when the model file `output` cannot be written (its folder is missing, it
// is a folder), or when `output` or `checkpoint` (either may be empty) is one of `inputs` or the other.
void check_training_outputs(const std::string& output, const std::string& checkpoint,
                            const std::vector<std::string>& inputs);

// Parses argv into `vm` (argv[0] is the command's name) under the tools' error contract (cli::UsageError for
// a bad option or value). Returns false after printing `usage` and `options` for --help.
bool parse_command_line(int argc, const char* const* argv, const boost::program_options::options_description& options,
                        const std::string& usage, boost::program_options::variables_map& vm);

}  // namespace cascade::train
