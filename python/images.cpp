#include "python/images.hpp"

#include <cstring>
#include <fstream>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <string>

#include "cli/values.hpp"
#include "common/image_header.hpp"
#include "python/arguments.hpp"
#include "python/errors.hpp"

namespace py = pybind11;

namespace cascade::python {

namespace {

std::string shape_text(const py::array& a) {
    std::string s = "(";
    for (py::ssize_t i = 0; i < a.ndim(); ++i) s += (i ? ", " : "") + std::to_string(a.shape(i));
    return s + (a.ndim() == 1 ? ",)" : ")");
}

void check_layout(const py::array& a, bool colour) {
    const py::ssize_t pixel = colour ? 3 : 1;
    const bool adjacent = (!colour || a.strides(2) == 1) && a.strides(1) == pixel && a.strides(0) >= a.shape(1) * pixel;
    if (!adjacent)
        throw py::value_error("image: the pixels of a row are not adjacent in memory (strides " +
                              std::to_string(a.strides(0)) + ", " + std::to_string(a.strides(1)) +
                              "); pass numpy.ascontiguousarray(image)");
}

}  // namespace

cv::Mat view_of(const py::array& image, Size window) {
    // By value (an unpickled array has a dtype object of its own), through Python attributes (NumPy's struct
    // layouts differ between versions).
    if (py::str(image.dtype().attr("char")).cast<std::string>() != "B")
        throw py::type_error("image: dtype " + std::string(py::str(image.dtype())) +
                             " is not supported (uint8 gray or BGR; convert with image.astype(numpy.uint8))");
    const bool colour = image.ndim() == 3 && image.shape(2) == 3;
    if (image.ndim() != 2 && !colour)
        throw py::value_error("image: shape " + shape_text(image) +
                              " is not an image (a 2-D gray array, or height x width x 3 BGR)");
    if (image.size() == 0) throw py::value_error("image: shape " + shape_text(image) + " is empty");
    check_layout(image, colour);
    const Size size{static_cast<int>(image.shape(1)), static_cast<int>(image.shape(0))};
    if (size.width < window.width || size.height < window.height)
        throw py::value_error("image: " + cli::size_text(size) + " is smaller than the model window " +
                              cli::size_text(window));
    void* data = const_cast<void*>(image.data());
    const auto step = static_cast<std::size_t>(image.strides(0));
    return cv::Mat(size.height, size.width, colour ? CV_8UC3 : CV_8UC1, data, step);
}

cv::Mat gray_of(const cv::Mat& view) {
    if (view.channels() == 1) return view;
    cv::Mat gray;
    cv::cvtColor(view, gray, cv::COLOR_BGR2GRAY);
    return gray;
}

py::array_t<double> detections_array(const std::vector<Detection>& detections) {
    py::array_t<double> out({static_cast<py::ssize_t>(detections.size()), py::ssize_t{5}});
    auto a = out.mutable_unchecked<2>();
    for (py::ssize_t i = 0; i < a.shape(0); ++i) {
        const Detection& d = detections[static_cast<std::size_t>(i)];
        a(i, 0) = d.rect.x;
        a(i, 1) = d.rect.y;
        a(i, 2) = d.rect.width;
        a(i, 3) = d.rect.height;
        a(i, 4) = d.score;
    }
    return out;
}

namespace {

py::array imread(const py::object& path_argument, bool gray) {
    const std::string path = path_of(path_argument);
    if (!std::ifstream(path, std::ios::binary))
        throw FileError(path, "cannot open the file (missing or no permission)");
    check_image_file_pixels(path);
    cv::Mat image = cv::imread(path, cv::IMREAD_COLOR);
    if (image.empty()) throw FileError(path, "cannot read the image (corrupt, or not an image)");
    if (gray) cv::cvtColor(cv::Mat(image), image, cv::COLOR_BGR2GRAY);
    std::vector<py::ssize_t> shape{image.rows, image.cols};
    if (!gray) shape.push_back(3);
    py::array_t<std::uint8_t> out(shape);
    const auto row = static_cast<std::size_t>(image.cols) * image.elemSize();
    for (int y = 0; y < image.rows; ++y) std::memcpy(out.mutable_data(y), image.ptr(y), row);
    return out;
}

}  // namespace

void bind_images(py::module_& module) {
    module.def("imread", &imread, py::arg("path"), py::arg("gray") = false,
               "imread(path, gray=False) -> ndarray\n\n"
               "The image file as cascade-detect reads it: an (H, W, 3) uint8 BGR array (OpenCV's imread), or with\n"
               "gray=True the (H, W) uint8 gray image cascade-detect converts it to (OpenCV's BGR2GRAY). Raises\n"
               "OSError naming the file when it is missing, unreadable, not an image, or when its header declares\n"
               "more than 100 million pixels (CASCADE_MAX_IMAGE_PIXELS sets another limit).");
}

}  // namespace cascade::python
