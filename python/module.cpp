// The Python module cascade_toolkit: the toolkit from NumPy (README, "Python").
#include "python/bindings.hpp"
#include "python/errors.hpp"
#include "python/images.hpp"
#include "python/model.hpp"

PYBIND11_MODULE(cascade_toolkit, module) {
    module.doc() =
        "Boosted-cascade object detectors (LBP and HoG) on the CPU and the GPU, their model files, trainers and\n"
        "per-window evaluation, from NumPy: the library behind cascade-detect, cascade-train, cascade-export and\n"
        "cascade-eval, with their option names (as keywords: scale_factor for --scale-factor) and messages.\n\n"
        "    import cascade_toolkit as ct\n"
        "    faces = ct.Detector('/usr/share/opencv4/lbpcascades/lbpcascade_frontalface.xml', scaleFactor=1.1)\n"
        "    boxes = faces.detect(ct.imread('photo.jpg'))   # (N, 5): x, y, w, h, score";
    cascade::python::bind_errors(module);
    cascade::python::bind_images(module);
    cascade::python::bind_model(module);
    cascade::python::bind_detector(module);
    cascade::python::bind_training(module);
    cascade::python::bind_evaluation(module);
}
