#include "python/errors.hpp"

#include "cli/usage_error.hpp"

namespace py = pybind11;

namespace cascade::python {

void bind_errors(py::module_& module) {
    // Kept for the life of the interpreter (a translator cannot own a Python object safely at exit).
    static py::handle model_error =
        py::exception<CorruptModel>(module, "ModelError", PyExc_ValueError).release();
    module.attr("ModelError").attr("__doc__") =
        "A model file that was read but is corrupt, truncated or inconsistent (a ValueError).";
    py::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p) std::rethrow_exception(p);
        } catch (const CorruptModel& e) {
            PyErr_SetString(model_error.ptr(), e.what());
        } catch (const FileError& e) {
            PyErr_SetString(PyExc_OSError, e.what());
        } catch (const cli::UsageError& e) {
            PyErr_SetString(PyExc_ValueError, e.what());
        } catch (const InputError& e) {
            PyErr_SetString(e.subject().rfind('-', 0) == 0 ? PyExc_ValueError : PyExc_OSError, e.what());
        }
    });
}

}  // namespace cascade::python
