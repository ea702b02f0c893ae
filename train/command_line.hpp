// Command-line pieces shared by the trainers' commands (train/lbp/lbp_command.hpp, train/hog/hog_command.hpp):
// the dataset options and option parsing. Each command runs under cli::run_tool ("cascade-train NAME").
#pragma once

#include <boost/program_options.hpp>
#include <string>
#include <vector>

#include "data/crop_options.hpp"
#include "data/dataset.hpp"
#include "data/positive_samples.hpp"

namespace cascade::train {

// The options of DatasetSpec (--pos, --neg, --window, --pos-margin, --group-by, --padding, --mirror, --jitter,
// --holdout), bound to `spec` (--pos-margin and --group-by parsed by po::notify) and `window` (cli::parse_size
// after po::notify).
boost::program_options::options_description dataset_options(data::DatasetSpec& spec, std::string& window,
                                                            unsigned line_length,
                                                            const std::string& default_window = "64x128");

// The data options of the trainers that take crops of the window with a margin (hog, cov): --pos, --neg,
// --output, --pos-margin, --group-by, --holdout, --jitter, --jitter-shift, --jitter-scale, --threads.
struct CropTrainingOptions {
    std::vector<std::string> positive_dirs, negative_dirs;
    std::string output;
    data::Margin margin{16, 16, 16, 16};
    data::GroupBy group_by = data::GroupBy::name;
    double holdout = 0.2;
    data::Jitter jitter;
    int threads = 0;
};

// Adds them to `options`, bound to `s` (--pos-margin and --group-by parsed by po::notify).
void add_crop_training_options(boost::program_options::options_description& options, CropTrainingOptions& s);

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
