// evaluate_window(): cascade-eval window (bench/eval/protocols.hpp) for one model, with its options as keywords
// (parsed by cascade-eval's own parser) and its DET curve as NumPy arrays.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>
#include <sstream>

#include "bench/eval/eval_options.hpp"
#include "bench/eval/protocols.hpp"
#include "cli/usage_error.hpp"
#include "python/arguments.hpp"
#include "python/bindings.hpp"
#include "python/model.hpp"

namespace py = pybind11;

namespace cascade::python {

namespace {

eval::WindowCommand window_command(const PackedModel& model, const py::object& pos, const py::object& neg,
                                   const py::kwargs& keywords) {
    for (const char* output : {"json", "plot", "label", "reference", "model"})
        if (keywords.contains(output))
            throw cli::UsageError(output, "is not an option of evaluate_window (it measures the one model given)");
    std::vector<std::string> args{"cascade-eval", "window", "--model", model.model.source};
    append_option("--pos", pos, args);
    append_option("--neg", neg, args);
    for (const std::string& a : command_line_arguments(keywords)) args.push_back(a);
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    std::ostringstream help;
    const std::optional<eval::Command> command = eval::parse_command(static_cast<int>(argv.size()), argv.data(), help);
    if (!command) throw cli::UsageError("--help", "is not an option of evaluate_window");
    return std::get<eval::WindowCommand>(*command);
}

py::dict result_of(const eval::ModelResult& r) {
    const auto column = [&](double eval::CurvePoint::*field) {
        py::array_t<double> a(static_cast<py::ssize_t>(r.curve.size()));
        for (std::size_t i = 0; i < r.curve.size(); ++i) a.mutable_at(static_cast<py::ssize_t>(i)) = r.curve[i].*field;
        return a;
    };
    py::dict miss_rate_at;
    for (const auto& [budget, miss] : r.miss_rate_at) miss_rate_at[py::float_(budget)] = miss;
    py::dict out;
    out["false_positives"] = column(&eval::CurvePoint::false_positives);
    out["miss_rate"] = column(&eval::CurvePoint::miss_rate);
    out["threshold"] = column(&eval::CurvePoint::threshold);
    out["miss_rate_at"] = miss_rate_at;
    out["positives"] = r.positives;
    out["windows"] = r.units;
    out["images"] = r.images;
    out["work_per_window"] = r.work_per_window;
    out["work_unit"] = r.work_unit;
    out["settings"] = py::dict(py::cast(r.settings));
    return out;
}

py::dict evaluate_window(const py::object& model_argument, const py::object& pos, const py::object& neg,
                         const py::kwargs& keywords) {
    const SharedModel model = model_of(model_argument);
    const eval::WindowCommand c = window_command(*model, pos, neg, keywords);
    eval::ModelResult result;
    {
        py::gil_scoped_release release;
        const eval::TestSet set = eval::find_test_set(c.split);
        result = eval::window_protocol(eval::cascade_scorer(model->model, c.scan, c.split.margin), set, c.scan.threads);
    }
    return result_of(result);
}

}  // namespace

void bind_evaluation(py::module_& module) {
    module.def("evaluate_window", &evaluate_window, py::arg("model"), py::arg("pos"), py::arg("neg"),
               R"(evaluate_window(model, pos, neg, **options) -> dict

cascade-eval window for one model (None, a path or a Model): the centred window of each positive crop against
every window of a dense scan of the person-free images; keywords are cascade-eval window's options, underscores
for hyphens (holdout=0.2, seed=1, stride=8, scale_factor=1.2, threads=2). Returns the DET curve as arrays,
"false_positives" (per window), "miss_rate" and "threshold" (one point per distinct positive score, in
decreasing threshold), "miss_rate_at" ({1e-4: ..., 1e-5: ...}), "positives", "windows", "images",
"work_per_window" with its "work_unit", and "settings". The GIL is released while it measures.)");
}

}  // namespace cascade::python
