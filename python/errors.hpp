// How the toolkit's errors reach Python: the tools' one-line messages ("subject: problem"), as
//   ValueError  a bad option or argument (cli::UsageError; an InputError whose subject is an option, "--x"),
//   OSError     a file that cannot be read or written (any other InputError: its subject is the file),
//   cascade_toolkit.ModelError (a ValueError)  a model file that is read but corrupt or inconsistent.
// Bindings that know more throw FileError or CorruptModel themselves (load_model tells the two apart).
#pragma once

#include <pybind11/pybind11.h>
#include <string>

#include "common/error.hpp"

namespace cascade::python {

class FileError : public InputError {
public:
    using InputError::InputError;
};

class CorruptModel : public InputError {
public:
    using InputError::InputError;
};

// Registers ModelError in `module` and the translation of the C++ exceptions above.
void bind_errors(pybind11::module_& module);

}  // namespace cascade::python
