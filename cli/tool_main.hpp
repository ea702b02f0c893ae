// The tools' error contract, written once: a tool's main runs its body through run_tool, which turns every
// failure into one line on stderr, "TOOL: error: <subject>: <problem>" (printable: line breaks become
// spaces, other control characters \xHH), and the exit code: 2 for cli::UsageError (a bad option or parameter), 1 for anything else (a bad
// input file, or a failure of the tool). The body's own return value is the exit code otherwise.
#pragma once

#include <functional>
#include <string>

namespace cascade::cli {

int run_tool(const std::string& tool, const std::function<int()>& body);

// `text` safe to print on a terminal: line breaks become spaces, other control characters (a file name's
// escape sequences) \xHH.
std::string printable(const std::string& text);

// The one-line report of run_tool, for a tool that ends with an error of its own outside a body.
int report_error(const std::string& tool, const std::string& message, int exit_code);

}  // namespace cascade::cli
