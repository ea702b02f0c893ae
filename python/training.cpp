// train_lbp(), train_hog() and train_lbp_opencv(): the trainers' commands (train/lbp/lbp_command.hpp,
// train/hog/hog_command.hpp, train/lbp/stage_command.hpp)
// with their options as keywords, their log lines to a Python callback, and the model they write returned.
#include <filesystem>
#include <unistd.h>

#include "cli/usage_error.hpp"

#include "common/model_io.hpp"
#include "python/arguments.hpp"
#include "python/bindings.hpp"
#include "python/model.hpp"
#include "train/hog/hog_command.hpp"
#include "train/lbp/lbp_command.hpp"
#include "train/lbp/stage_command.hpp"

namespace py = pybind11;
namespace fs = std::filesystem;

namespace cascade::python {

namespace {

using Command = bool (*)(int, const char* const*, const data::ProgressListener&);

// A folder of its own for a model that is only returned, removed with what training left in it.
class ScratchFolder {
public:
    ScratchFolder() {
        for (unsigned n = 0;; ++n) {
            const std::string name = "cascade_toolkit_" + std::to_string(::getpid()) + "_" + std::to_string(n);
            path_ = fs::temp_directory_path() / name;
            if (fs::create_directory(path_)) return;
        }
    }
    ~ScratchFolder() {
        std::error_code ignored;
        fs::remove_all(path_, ignored);
    }
    std::string file(const std::string& name) const { return (path_ / name).string(); }

private:
    fs::path path_;
};

// The callback gets (done, total, line): a log line, or None for a progress step. It is called with the GIL
// held; an exception it raises ends training and reaches the caller, as does Ctrl-C (checked at every step, with
// or without a callback).
data::ProgressListener listener_for(const py::handle& callback) {
    return [callback](int done, int total, const std::string& line) {
        py::gil_scoped_acquire gil;
        if (PyErr_CheckSignals() != 0) throw py::error_already_set();
        if (!callback.is_none())
            callback(done, total, line.empty() ? py::object(py::none()) : py::object(py::str(line)));
    };
}

SharedModel train(Command command, const char* name, const char* function, const py::object& pos, const py::object& neg,
                  const py::object& output, const py::object& progress, const py::kwargs& keywords) {
    if (!progress.is_none() && !PyCallable_Check(progress.ptr())) throw py::type_error("progress: is not callable");
    const ScratchFolder scratch;
    const bool keep = !output.is_none();
    const std::string model_path = keep ? path_of(output) : scratch.file("model.xml");
    std::vector<std::string> args{name};
    append_option("--pos", pos, args);
    append_option("--neg", neg, args);
    args.insert(args.end(), {"--output", model_path});
    for (const std::string& a : command_line_arguments(keywords)) args.push_back(a);
    std::vector<const char*> argv;
    for (const std::string& a : args) argv.push_back(a.c_str());
    const data::ProgressListener listener = listener_for(progress);
    {
        py::gil_scoped_release release;
        if (!command(static_cast<int>(argv.size()), argv.data(), listener))
            throw cli::UsageError("--help", "is not an option of the Python function");
    }
    Model model = load_model(model_path);
    model.source = keep ? model_path : std::string("cascade_toolkit.") + function;
    return std::make_shared<PackedModel>(compile_model(std::move(model)));
}

constexpr const char* kTrainDoc = R"(

pos, neg: a source or a list of them (folders, list files; as --pos and --neg). output: where the model is
written (the project's XML) and kept; None: a scratch folder, removed after (the LBP trainer's checkpoint goes
there too, unless checkpoint= says otherwise). progress: None (silent) or a callable progress(done, total,
line), called with each log line the command prints (line a str) and each progress step (line None), e.g.
progress=lambda done, total, line: line and print(line). Every other keyword is the command's option of that
name, underscores for hyphens (weak_learners=10 is --weak-learners 10; True gives a flag such as --accept,
a list repeats the option); `cascade-train CMD --help` lists them. Returns the trained Model. ValueError with
the command's message for a bad option, OSError for an unreadable source; the GIL is released while training.)";

}  // namespace

void bind_training(py::module_& module) {
    const auto def = [&](const char* function, const char* name, Command command, const std::string& summary) {
        module.def(
            function,
            [command, name, function](const py::object& pos, const py::object& neg, const py::object& output,
                                      const py::object& progress, const py::kwargs& keywords) {
                return train(command, name, function, pos, neg, output, progress, keywords);
            },
            py::arg("pos"), py::arg("neg"), py::kw_only(), py::arg("output") = py::none(),
            py::arg("progress") = py::none(), (summary + kTrainDoc).c_str());
    };
    def("train_lbp", "lbp", &train::lbp::run,
        "train_lbp(pos, neg, *, output=None, progress=None, **options) -> Model\n\n"
        "cascade-train lbp: a WaldBoost cascade of multi-block LBP weak learners.");
    def("train_hog", "hog", &train::hog::run,
        "train_hog(pos, neg, *, output=None, progress=None, **options) -> Model\n\n"
        "cascade-train hog: AdaBoost stages of HoG-block linear SVMs.");
    def("train_lbp_opencv", "lbp-opencv", &train::lbp::stage_run,
        "train_lbp_opencv(pos, neg, *, output=None, progress=None, **options) -> Model\n\n"
        "cascade-train lbp-opencv: opencv_traincascade's LBP training; output is OpenCV's cascade XML (and\n"
        "the project's XML beside it, project_output=).");
}

}  // namespace cascade::python
