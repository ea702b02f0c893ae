#include "python/model.hpp"

#include <fstream>
#include <pybind11/stl.h>

#include "common/atomic_file.hpp"
#include "common/model_io.hpp"
#include "detect/model_source.hpp"
#include "python/arguments.hpp"
#include "python/errors.hpp"

namespace py = pybind11;

namespace cascade::python {

SharedModel load_model_file(const std::string& path) {
    if (!std::ifstream(path, std::ios::binary))
        throw FileError(path, "cannot open the model file (missing or no permission)");
    try {
        return std::make_shared<PackedModel>(load_packed_model(path));
    } catch (const InputError& e) {
        throw CorruptModel(e.subject(), e.problem());
    }
}

SharedModel model_of(const py::handle& model) {
    if (model.is_none()) return std::make_shared<PackedModel>(detect::load_detection_model(std::nullopt));
    if (py::isinstance<PackedModel>(model)) return model.cast<SharedModel>();
    if (py::isinstance<py::str>(model) || py::hasattr(model, "__fspath__"))
        return load_model_file(path_of(model));
    throw py::type_error("model: expected None (the embedded default), a path or a cascade_toolkit.Model, "
                         "not " + std::string(py::str(model.get_type().attr("__name__"))));
}

namespace {

const char* kind_of(const PackedModel& m) {
    if (std::holds_alternative<HaarCascade>(m.model.cascade)) return "haar";
    if (std::holds_alternative<CovCascade>(m.model.cascade)) return "cov";
    return std::holds_alternative<LbpCascade>(m.model.cascade) ? "lbp" : "hog";
}

template <class F>
auto on_cascade(const PackedModel& m, F f) {
    return std::visit([&](const auto& cascade) { return f(cascade); }, m.model.cascade);
}

py::tuple window_of(const PackedModel& m) {
    return on_cascade(m, [](const auto& c) { return py::make_tuple(c.window.width, c.window.height); });
}

std::size_t stages_of(const PackedModel& m) {
    return on_cascade(m, [](const auto& c) { return c.stages.size(); });
}

std::size_t weak_learners_of(const PackedModel& m) {
    return on_cascade(m, [](const auto& c) { return c.weaks.size(); });
}

std::string repr(const PackedModel& m) {
    const py::tuple window = window_of(m);
    return "<cascade_toolkit.Model " + std::string(kind_of(m)) + " " + std::string(py::str(window[0])) + "x" +
           std::string(py::str(window[1])) + ", " + std::to_string(stages_of(m)) + " stages, " +
           std::to_string(weak_learners_of(m)) + " weak learners, from " + m.model.source + ">";
}

void export_binary(const PackedModel& m, const py::object& path) {
    const std::vector<std::uint8_t> packed = pack_model(m);
    write_file_atomically(path_of(path), std::string(packed.begin(), packed.end()));
}

// Pickled as cascade-export's packed bytes (checked again by unpack_model when unpickled) and its source.
py::tuple packed_state(const PackedModel& m) {
    const std::vector<std::uint8_t> packed = pack_model(m);
    return py::make_tuple(py::bytes(reinterpret_cast<const char*>(packed.data()), packed.size()), m.model.source);
}

SharedModel from_packed_state(const py::tuple& state) {
    const std::string bytes = state[0].cast<std::string>();
    PackedModel m = unpack_model(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size(),
                                 state[1].cast<std::string>());
    m.model.source = state[1].cast<std::string>();
    return std::make_shared<PackedModel>(std::move(m));
}

}  // namespace

void bind_model(py::module_& module) {
    py::class_<PackedModel, SharedModel>(module, "Model",
                                         "A cascade as the detectors run it; from load_model(), train_lbp() or "
                                         "train_hog().")
        .def_property_readonly("kind", &kind_of, "'lbp', 'hog', 'haar' or 'cov'")
        .def_property_readonly("source", [](const PackedModel& m) { return m.model.source; },
                               "the file it was read from, or 'embedded:<name>'")
        .def_property_readonly("window", &window_of, "the detection window (width, height)")
        .def_property_readonly("stages", &stages_of)
        .def_property_readonly("weak_learners", &weak_learners_of)
        .def("save", [](const PackedModel& m, const py::object& path) { save_model(m.model, path_of(path)); },
             py::arg("path"),
             "Writes the project's XML format (docs/model-format.md) through a temporary renamed into place.")
        .def("export", &export_binary, py::arg("path"),
             "Writes the packed binary of cascade-export --binary (what the GPU detectors run; cascade-detect\n"
             "--model and load_model read it). C++ headers: cascade-export --header.")
        .def("__repr__", &repr)
        .def(py::pickle([](const PackedModel& m) { return packed_state(m); },
                        [](const py::tuple& state) { return from_packed_state(state); }));
    module.def("load_model", [](const py::object& path) { return model_of(path); }, py::arg("path"),
               "load_model(path) -> Model\n\n"
               "Reads the project's XML, OpenCV's LBP cascade XML or a packed binary from cascade-export (by its\n"
               "magic bytes). OSError when the file cannot be opened, ModelError (a ValueError) naming the file\n"
               "and the problem when it is corrupt or inconsistent. load_model(None) gives the embedded default\n"
               "(the HoG pedestrian model).");
}

}  // namespace cascade::python
