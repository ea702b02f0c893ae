// The parts of the module cascade_toolkit (module.cpp), each binding one piece of the library.
#pragma once

#include <pybind11/pybind11.h>

namespace cascade::python {

void bind_detector(pybind11::module_& module);    // detector.cpp
void bind_training(pybind11::module_& module);    // training.cpp
void bind_evaluation(pybind11::module_& module);  // evaluation.cpp

}  // namespace cascade::python
