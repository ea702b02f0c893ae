// Boost.Program_options under the tools' error contract: its errors (an unknown option, a missing or
// malformed value) become cli::UsageError naming the option.
#pragma once

#include <boost/program_options.hpp>

namespace cascade::cli {

// Runs `parser` into `vm`. Returns false when --help was given: then nothing else is checked, so a required
// option may be missing. Otherwise refuses a typed number that is not finite ("inf", "nan") or a negative
// text read into an unsigned, notifies `vm` (required options, bound variables) and returns true.
// Throws UsageError naming the option ("command line" where Boost names none).
bool parse_options(boost::program_options::command_line_parser& parser, boost::program_options::variables_map& vm);

}  // namespace cascade::cli
