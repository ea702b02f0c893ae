// cascade_toolkit.Detector: detect/detector.hpp (backend, grouping, clipping) over NumPy images, with
// cascade-detect's option parsing and checks (detect/options.hpp parse_detector_options).
#include <memory>
#include <mutex>
#include <pybind11/stl.h>

#include "detect/detector.hpp"
#include "detect/options.hpp"
#include "python/arguments.hpp"
#include "python/bindings.hpp"
#include "python/images.hpp"
#include "python/model.hpp"

namespace py = pybind11;

namespace cascade::python {

namespace {

// Keywords and the cascade-detect options they are; OpenCV's detectMultiScale names beside ours.
const OptionNames kDetectorOptions = {
    {"scale_factor", "--scale-factor"}, {"scaleFactor", "--scale-factor"},  {"min_neighbors", "--min-neighbors"},
    {"minNeighbors", "--min-neighbors"}, {"min_size", "--min-size"},        {"minSize", "--min-size"},
    {"max_size", "--max-size"},          {"maxSize", "--max-size"},         {"first_scale", "--first-scale"},
    {"stride", "--stride"},              {"group", "--group"},              {"nms_iou", "--nms-iou"},
    {"min_score", "--min-score"},        {"threads", "--threads"},          {"gpu_pyramid", "--gpu-pyramid"},
    {"compaction", "--compaction"}};

// OpenCV's minSize=(0, 0) and maxSize=(0, 0) mean "none", as leaving them out does here.
py::kwargs without_empty_sizes(const py::kwargs& keywords) {
    const auto zero_pair = [](const py::handle& v) {
        if (!py::isinstance<py::tuple>(v) && !py::isinstance<py::list>(v)) return false;
        if (py::len(v) != 2) return false;
        for (const py::handle x : v)
            if (!py::isinstance<py::int_>(x) || x.cast<long long>() != 0) return false;
        return true;
    };
    py::kwargs out;
    for (const auto& [key, value] : keywords) {
        const auto option = kDetectorOptions.find(py::str(key));
        const bool size = option != kDetectorOptions.end() &&
                          (option->second == "--min-size" || option->second == "--max-size");
        if (!size || !zero_pair(value)) out[key] = value;
    }
    return out;
}

class PyDetector {
public:
    // `args`: cascade-detect's options ("--backend", "gpu", "--stride", "4", ...).
    PyDetector(SharedModel model, std::vector<std::string> args) : model_(std::move(model)), args_(std::move(args)) {
        const detect::Options options = detect::parse_detector_options(args_);
        backend_ = options.backend;
        detector_ = std::make_unique<detect::Detector>(*model_, options);
    }

    static std::unique_ptr<PyDetector> from_python(const py::object& model, const std::string& backend,
                                                   const py::kwargs& keywords) {
        std::vector<std::string> args{"--backend", backend};
        for (const std::string& a : option_arguments(without_empty_sizes(keywords), kDetectorOptions, "Detector"))
            args.push_back(a);
        return std::make_unique<PyDetector>(model_of(model), std::move(args));
    }

    // Pickled as its model and options, so that process pools (concurrent.futures, Dask, Ray) can ship it.
    py::tuple state() const { return py::make_tuple(model_, args_); }
    static std::unique_ptr<PyDetector> from_state(const py::tuple& state) {
        return std::make_unique<PyDetector>(state[0].cast<SharedModel>(), state[1].cast<std::vector<std::string>>());
    }

    py::array_t<double> detect(const py::array& image) {
        const cv::Mat view = view_of(image, detector_->window());
        return detections_array(run(view));
    }

    py::list detect_batch(const py::iterable& images) {
        std::vector<py::array> arrays;  // held while the GIL is released
        std::vector<cv::Mat> views;
        for (const py::handle item : images) {
            if (!py::isinstance<py::array>(item))
                throw py::type_error("detect_batch: every image must be a numpy array");
            arrays.push_back(py::reinterpret_borrow<py::array>(item));
            views.push_back(view_of(arrays.back(), detector_->window()));
        }
        std::vector<std::vector<Detection>> found(views.size());
        {
            py::gil_scoped_release release;
            for (std::size_t i = 0; i < views.size(); ++i) found[i] = run_locked(views[i]);
        }
        py::list out;
        for (const auto& d : found) out.append(detections_array(d));
        return out;
    }

    py::tuple window() const { return py::make_tuple(detector_->window().width, detector_->window().height); }
    const std::string& backend() const { return backend_; }
    SharedModel model() const { return model_; }

private:
    std::vector<Detection> run(const cv::Mat& view) {
        py::gil_scoped_release release;
        return run_locked(view);
    }

    // Without the GIL: the BGR conversion, then detection. The CPU detectors are reentrant; a GPU detector owns
    // its device buffers, so its frames go one at a time.
    std::vector<Detection> run_locked(const cv::Mat& view) {
        const cv::Mat gray = gray_of(view);
        if (backend_ == "cpu") return detector_->detect(gray);
        const std::lock_guard<std::mutex> lock(gpu_mutex_);
        return detector_->detect(gray);
    }

    SharedModel model_;
    std::vector<std::string> args_;
    std::string backend_;
    std::unique_ptr<detect::Detector> detector_;
    std::mutex gpu_mutex_;
};

constexpr const char* kDetectorDoc = R"(Detector(model=None, backend="cpu", **options)

A cascade detector: cascade-detect's detector for one model. model: None (the embedded default, the HoG
pedestrian model models/pedestrian_hog.xml), a path (any format load_model reads) or a Model. backend: "cpu"
(the reference detectors) or "gpu" (a build with CUDA and a CUDA device; with gpu_pyramid="exact", the default,
it finds what the CPU finds).

Options (cascade-detect's, same meaning, ranges and defaults; OpenCV's detectMultiScale names are accepted
where they mean the same):
  scale_factor / scaleFactor  pyramid step, 1.01..4 (1.1)
  min_neighbors / minNeighbors  group="opencv": a group needs more than N windows (3)
  min_size / minSize, max_size / maxSize  (width, height) or N; (0, 0): none
  first_scale (1), stride ("auto" or 1..64), group ("opencv", "nms", "meanshift", "none"), nms_iou (0.3),
  min_score, threads (0: all cores), gpu_pyramid ("exact", "texture"), compaction ("auto", ...)
A bad option raises ValueError with cascade-detect's message (naming the option as on its command line); a
model file that cannot be opened OSError, a corrupt one ModelError.

detect() and detect_batch() release the GIL: a pool of threads may share one Detector (CPU: frames run side
by side; GPU: one at a time). A Detector pickles (as its model and options), for process pools.)";

}  // namespace

void bind_detector(py::module_& module) {
    py::class_<PyDetector>(module, "Detector", kDetectorDoc)
        .def(py::init(&PyDetector::from_python), py::arg("model") = py::none(), py::arg("backend") = "cpu")
        .def(py::pickle([](const PyDetector& d) { return d.state(); },
                        [](const py::tuple& state) { return PyDetector::from_state(state); }))
        .def("detect", &PyDetector::detect, py::arg("image"),
             "detect(image) -> ndarray\n\n"
             "The detections on one image as an (N, 5) float64 array of (x, y, w, h, score): cascade-detect's\n"
             "for the same pixels. image: a 2-D uint8 array (read in place, any row stride) or an (H, W, 3) uint8\n"
             "BGR array (converted to gray as cascade-detect converts the images it reads). TypeError for another\n"
             "dtype; ValueError for another shape, an empty array, pixels not adjacent in a row, or an image\n"
             "smaller than the model window.")
        .def("detect_batch", &PyDetector::detect_batch, py::arg("images"),
             "detect_batch(images) -> list of ndarray\n\n"
             "detect() of each image, every image checked before any is run. The frames run one after another\n"
             "(on the GPU too: keeping several frames in flight on the GPU is not built yet).")
        .def_property_readonly("window", &PyDetector::window, "the model window (width, height)")
        .def_property_readonly("backend", &PyDetector::backend)
        .def_property_readonly("model", &PyDetector::model);
}

}  // namespace cascade::python
