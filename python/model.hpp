// cascade_toolkit.Model: one cascade in the form the detectors run (common/packed_model.hpp), immutable and
// shared by the Detectors made from it; load_model(path) reads every format the tools read (the project's XML,
// OpenCV's LBP cascade XML, cascade-export's packed binary), save() writes the project's XML, export() the
// packed binary.
#pragma once

#include <memory>
#include <pybind11/pybind11.h>
#include <string>

#include "common/packed_model.hpp"

namespace cascade::python {

using SharedModel = std::shared_ptr<PackedModel>;  // never changed once made (pybind11 holds no const)

// The model file at `path`, packed; FileError when it cannot be opened, CorruptModel when it is read but bad.
SharedModel load_model_file(const std::string& path);

// A model argument: None (the embedded default model), a path (str or os.PathLike) or a Model.
SharedModel model_of(const pybind11::handle& model);

void bind_model(pybind11::module_& module);

}  // namespace cascade::python
