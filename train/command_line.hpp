// Command-line pieces shared by the trainers' subcommands: the dataset options, option parsing with the
// toolkit's exit codes (2 for usage errors, 1 for bad input), and one-line error reports.
#pragma once

#include <boost/program_options.hpp>
#include <functional>
#include <string>

#include "train/dataset.hpp"

namespace cascade::train {

// The options of DatasetSpec (--pos, --neg, --window, --pos-margin, --padding, --mirror, --holdout), bound to
// `spec` and `window` (parsed with parse_window after po::notify).
boost::program_options::options_description dataset_options(DatasetSpec& spec, std::string& window,
                                                            unsigned line_length);

// "64x128" -> {64, 128}; InputError naming `option` otherwise.
Size parse_window(const std::string& text, const std::string& option);

// Parses argv into `vm` (argv[0] is the subcommand's name). Returns false after printing "--help" output.
// Throws boost::program_options::error on a usage error.
bool parse_command_line(int argc, char** argv, const boost::program_options::options_description& options,
                        const std::string& usage, boost::program_options::variables_map& vm);

// Runs a subcommand body, turning exceptions into one line "cascade-train NAME: error: ..." on stderr and an
// exit code: 2 for usage errors (boost's, and InputError raised while `usage_phase` is true), 1 for other
// InputError and everything else.
int run_reporting_errors(const std::string& name, const std::function<int(bool& usage_phase)>& body);

}  // namespace cascade::train
