#include "keypoints/options.hpp"

#include <boost/program_options.hpp>
#include <ostream>

#include "cli/usage_error.hpp"
#include "cli/values.hpp"

namespace po = boost::program_options;

namespace cascade::keypoints {

using cli::UsageError;

namespace {

constexpr const char* kUsage = R"(Usage: cascade-keypoints [options] INPUT...

Finds corners with FOAGDD (Zhang and Sun, IJCV 2020: first-order anisotropic Gaussian directional derivative
filters, 8 orientations x 3 scales, a multi-directional structure tensor over a 7x7 disc, 5x5 non-maximum
suppression, and the same test at the two larger scales), as the authors' public code computes it
(docs/keypoints.md), in images, folders, list files and videos. Each corner is written as file, frame, x, y,
w = h = 1 and score = its measure det(M) / (tr(M) + eps) at the first scale, as JSON or CSV, optionally with
annotated images (a circle per corner) or an annotated video. Frames are converted to 8-bit grey (OpenCV's
BGR2GRAY); the measure grows with the 14th power of intensity, so the threshold is for 0..255 grey.
INPUT is an image file; a folder (its images, sorted by name, not recursive); @LIST, a text file with one path
per line; or a video. Every input must be readable and at least 16x16: the first bad input stops the run with
exit code 1 (2 for bad options), and then no output file is left behind; --skip-bad skips and reports it.)";

constexpr const char* kExamples = R"(
Examples:
  cascade-keypoints photo.jpg
  cascade-keypoints --backend gpu --output corners.csv --annotate marked/ photos/
  cascade-keypoints --threshold 1e9 --output corners.json --annotate-video corners.avi street.mp4
)";

struct Raw {
    std::string threshold, backend, threads;
    detect::RunOptionTexts run;
};

po::options_description visible_options(Raw& raw) {
    po::options_description options("Options", 112, 56);
    options.add_options()
        ("help,h", "show this help and exit")
        ("threshold", po::value(&raw.threshold)->value_name("T"),
         "a corner's measure must be above T at all three scales, T >= 0 (default: 10^8.4 = 2.5119e8, the "
         "authors')")
        ("backend", po::value(&raw.backend)->value_name("NAME"),
         "cpu (the reference) or gpu in a build with CUDA (the same corners, measures equal bit for bit) "
         "(default: cpu)")
        ("threads", po::value(&raw.threads)->value_name("N"), "CPU worker threads, 0 for all cores (default: 0)");
    add_run_options(options, raw.run, "corners", "16x16");
    return options;
}

void apply_detector(const Raw& raw, const po::variables_map& vm, Options& o) {
    if (vm.count("threshold")) {
        o.threshold = cli::parse_real("--threshold", raw.threshold);
        if (!(o.threshold >= 0)) throw UsageError("--threshold", raw.threshold + " is negative");
    }
    if (vm.count("backend")) {
        if (raw.backend != "cpu" && raw.backend != "gpu")
            throw UsageError("--backend", "unknown backend '" + raw.backend + "' (choose cpu or gpu)");
        o.backend = raw.backend;
    }
    if (vm.count("threads")) {
        o.threads = cli::parse_int("--threads", raw.threads);
        cli::check_threads("--threads", o.threads);
    }
}

}  // namespace

std::optional<Options> parse_options(int argc, const char* const* argv, std::ostream& help_out) {
    Raw raw;
    const po::options_description visible = visible_options(raw);
    po::variables_map vm;
    if (!detect::parse_run_command_line(argc, argv, visible, raw.run, vm, help_out, kUsage, kExamples))
        return std::nullopt;
    Options o;
    apply_detector(raw, vm, o);
    apply_run_options(raw.run, vm, o);
    return o;
}

}  // namespace cascade::keypoints
