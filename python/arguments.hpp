// Python keyword arguments as the tools' command-line arguments, so that the module's options are parsed and
// checked by the tools' own code, with their messages: `min_size=(24, 24)` is "--min-size 24x24".
//
// A keyword's value: str, int or float (written as Python writes it: a float reads back to the same double),
// a (width, height) pair as "WxH", True as the bare flag and False or None as nothing, a list or tuple of
// anything else as the option repeated. `names` maps each accepted keyword to its option; another keyword is a
// ValueError naming the keywords accepted.
#pragma once

#include <map>
#include <pybind11/pybind11.h>
#include <string>
#include <vector>

namespace cascade::python {

using OptionNames = std::map<std::string, std::string>;  // keyword -> option ("scale_factor" -> "--scale-factor")

// The options of `names` that `keywords` sets, in the order given; `what` names the function in messages.
std::vector<std::string> option_arguments(const pybind11::kwargs& keywords, const OptionNames& names,
                                          const std::string& what);

// Every keyword as the option of its name, underscores as hyphens ("weak_learners" -> "--weak-learners"), for
// a command whose parser refuses an unknown option itself (the trainers, cascade-eval).
std::vector<std::string> command_line_arguments(const pybind11::kwargs& keywords);

// A path argument: a str or an os.PathLike (os.fspath); TypeError otherwise.
std::string path_of(const pybind11::handle& path);

// The arguments of one keyword's value for `option` (as above), appended to `out`.
void append_option(const std::string& option, const pybind11::handle& value, std::vector<std::string>& out);

}  // namespace cascade::python
