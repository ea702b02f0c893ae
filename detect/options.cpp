#include "detect/options.hpp"

#include <boost/program_options.hpp>
#include <cmath>
#include <limits>
#include <ostream>
#include <sstream>

#include "cli/device_list.hpp"
#include "cli/usage_error.hpp"
#include "cli/values.hpp"
#include "detect/backend.hpp"

namespace po = boost::program_options;

namespace cascade::detect {

using cli::UsageError;
using cli::parse_real;
using cli::parse_int;
using cli::parse_size;
using cli::size_text;

namespace {

constexpr const char* kUsage = R"(Usage: cascade-detect [options] INPUT...

Runs a boosted-cascade object detector over images, folders, list files and videos and writes every detection
(file, frame, x, y, w, h, score) as JSON or CSV, optionally with annotated images or an annotated video. The
model is the project's XML, OpenCV's LBP or Haar cascade XML (Haar on the GPU: exact pyramid) or a packed
model from cascade-export. INPUT is an image file; a folder (its images, sorted by name, not recursive; other
files are skipped by extension); @LIST, a text file with one path per line, relative to the list's folder
(lines starting with # are comments); or a video (.avi .mp4 .mkv .mov .webm, or any file that is not an image
but opens as a video). Frames are converted to 8-bit gray. Every input must be readable and at least as large
as the model window, in folders, lists and videos alike: the first bad input stops the run with exit code 1 (2
for bad options), and then no output file, annotated image or video is left behind; outputs are written to
temporaries renamed on success. With --skip-bad a bad input is skipped and reported instead (stderr, and
"skipped" in the JSON). An image or video whose header declares more than 100 million pixels is bad input (the
environment variable CASCADE_MAX_IMAGE_PIXELS sets another limit).)";

constexpr const char* kExamples = R"(
Examples:
  cascade-detect --model /usr/share/opencv4/lbpcascades/lbpcascade_frontalface.xml photo.jpg
  cascade-detect --model face.xml --min-size 40 --output faces.csv --annotate annotated/ photos/ @more.txt
  cascade-detect --model people.xml --every 2 --max-frames 300 --output people.json \
      --annotate-video people.avi street.mp4
)";

struct Raw {
    std::string model, backend, gpu_pyramid, compaction, devices, frames_in_flight, scale_factor, first_scale, stride, min_size, max_size, group,
        min_neighbors, nms_iou, min_score, threads;
    RunOptionTexts run;
};

po::options_description visible_options(Raw& raw) {
    po::options_description options("Options", 112, 56);
    options.add_options()
        ("help,h", "show this help and exit")
        ("model,m", po::value(&raw.model)->value_name("FILE"),
         "the model (default: the embedded pedestrian model, models/pedestrian_hog.xml: HoG cascade, 64x128 "
         "window, people about 96 px tall in it)")
        ("backend", po::value(&raw.backend)->value_name("NAME"),
         "where detection runs: cpu, or gpu in a build with CUDA (default: cpu)")
        ("gpu-pyramid", po::value(&raw.gpu_pyramid)->value_name("MODE"),
         "gpu: exact (the CPU's pyramid pixels, so the CPU's detections) or texture (hardware bilinear sampling, "
         "faster, close to the CPU's) (default: exact)")
        ("compaction", po::value(&raw.compaction)->value_name("NAME"),
         "gpu: survivor compaction between stage groups: none, global_atomic, shared_atomic, hybrid, prefix_sum "
         "or auto, the fastest on the first frames (default: auto)")
        ("devices", po::value(&raw.devices)->value_name("LIST"),
         "gpu: the CUDA devices to spread frames over: all, or indices such as 0,1 (a device listed twice runs two "
         "detectors); results stay in input order (default: 0)")
        ("frames-in-flight", po::value(&raw.frames_in_flight)->value_name("N"),
         "gpu: frames in flight per device listed, each on a stream and detector of its own, so that upload, "
         "pyramid, cascade and download of several frames overlap (default: 4)")
        ("scale-factor", po::value(&raw.scale_factor)->value_name("F"),
         "pyramid step between scales, 1.01..4 (default: 1.1)")
        ("first-scale", po::value(&raw.first_scale)->value_name("S"),
         "the pyramid's smallest scale, 0.1 <= S <= 1: below 1 the image is first upsampled, to find objects "
         "smaller than the model window (S x window) (default: 1, as OpenCV)")
        ("stride", po::value(&raw.stride)->value_name("auto|N"),
         "window step in pixels of each pyramid level: auto is OpenCV's rule (2 below scale 2, 1 above, skipping "
         "the position after a first-stage rejection); N is 1..64 (default: auto)")
        ("min-size", po::value(&raw.min_size)->value_name("WxH|N"),
         "smallest object searched for (default: none, the model window)")
        ("max-size", po::value(&raw.max_size)->value_name("WxH|N"),
         "largest object searched for (default: none, the image size)")
        ("group", po::value(&raw.group)->value_name("MODE"),
         "merging of raw windows: opencv (OpenCV's groupRectangles), nms (greedy IoU non-maximum suppression), "
         "meanshift (modes in x, y and log scale, as for HoG pedestrians) or none (raw windows) (default: opencv)")
        ("min-neighbors", po::value(&raw.min_neighbors)->value_name("N"),
         "--group opencv: a group needs more than N windows; 0 gives the raw windows (default: 3)")
        ("nms-iou", po::value(&raw.nms_iou)->value_name("T"),
         "--group nms: drop a window whose IoU with a better one is > T, 0 < T <= 1 (default: 0.3)")
        ("min-score", po::value(&raw.min_score)->value_name("T"),
         "keep the raw windows whose score (the cascade's last sum) is >= T, before grouping: above the model's "
         "last threshold fewer detections; below it also the windows that the last stage rejects with a sum >= T "
         "(the model's operating point moved down, as cascade-eval image sweeps it) (default: none, the model's own)")
        ("threads", po::value(&raw.threads)->value_name("N"), "worker threads, 0 for all cores (default: 0)");
    add_run_options(options, raw.run, "detections", "the model window");
    return options;
}

Grouping parse_grouping(const std::string& text) {
    if (text == "opencv") return Grouping::opencv;
    if (text == "nms") return Grouping::nms;
    if (text == "meanshift") return Grouping::mean_shift;
    if (text == "none") return Grouping::none;
    throw UsageError("--group", "unknown mode '" + text + "' (choose opencv, nms, meanshift or none)");
}

void apply_numbers(const Raw& raw, const po::variables_map& vm, Options& o) {
    if (vm.count("scale-factor")) {
        o.scale_factor = parse_real("--scale-factor", raw.scale_factor);
        cli::check_scale_factor("--scale-factor", o.scale_factor);
    }
    if (vm.count("first-scale")) {
        o.first_scale = parse_real("--first-scale", raw.first_scale);
        if (!(o.first_scale >= 0.1 && o.first_scale <= 1.0))
            throw UsageError("--first-scale", raw.first_scale + " is out of range (must be >= 0.1 and <= 1)");
    }
    if (vm.count("stride") && raw.stride != "auto") {
        o.stride = parse_int("--stride", raw.stride);
        if (o.stride < 1 || o.stride > 64)
            throw UsageError("--stride", raw.stride + " is out of range (auto, or 1..64)");
    }
    if (vm.count("min-size")) o.min_size = parse_size("--min-size", raw.min_size);
    if (vm.count("max-size")) o.max_size = parse_size("--max-size", raw.max_size);
    if (vm.count("min-size") && vm.count("max-size") &&
        (o.min_size.width > o.max_size.width || o.min_size.height > o.max_size.height))
        throw UsageError("--min-size", size_text(o.min_size) + " is larger than --max-size " + size_text(o.max_size));
    if (vm.count("min-neighbors")) {
        o.grouping.min_neighbors = parse_int("--min-neighbors", raw.min_neighbors);
        if (o.grouping.min_neighbors < 0) throw UsageError("--min-neighbors", raw.min_neighbors + " is negative");
    }
    if (vm.count("nms-iou")) {
        const double iou = parse_real("--nms-iou", raw.nms_iou);
        if (!(iou > 0.0 && iou <= 1.0)) throw UsageError("--nms-iou", raw.nms_iou + " is out of range (0 < T <= 1)");
        o.grouping.nms_iou = static_cast<float>(iou);
    }
    if (vm.count("min-score")) {
        const double score = parse_real("--min-score", raw.min_score);
        if (!(std::fabs(score) <= std::numeric_limits<float>::max()))
            throw UsageError("--min-score", raw.min_score + " is out of range (a float)");
        o.min_score = static_cast<float>(score);
    }
    if (vm.count("threads")) {
        o.threads = parse_int("--threads", raw.threads);
        cli::check_threads("--threads", o.threads);
    }
}

void apply_grouping(const Raw& raw, const po::variables_map& vm, Options& o) {
    if (vm.count("group")) o.grouping.method = parse_grouping(raw.group);
    if (vm.count("min-neighbors") && o.grouping.method != Grouping::opencv)
        throw UsageError("--min-neighbors", std::string("only applies to --group opencv (not ") + grouping_name(o.grouping.method) + ")");
    if (vm.count("nms-iou") && o.grouping.method != Grouping::nms)
        throw UsageError("--nms-iou", std::string("only applies to --group nms (not ") + grouping_name(o.grouping.method) + ")");
}

}  // namespace

const char* grouping_name(Grouping group) {
    switch (group) {
        case Grouping::opencv: return "opencv";
        case Grouping::nms: return "nms";
        case Grouping::mean_shift: return "meanshift";
        case Grouping::none: return "none";
    }
    return "?";
}

namespace {

// The detector's own options of a parsed command line (all but the run's: inputs, report, annotation).
Options detector_options(const Raw& raw, const po::variables_map& vm) {
    Options o;
    if (vm.count("model")) {
        if (raw.model.empty()) throw UsageError("--model", "empty file name");
        o.model = raw.model;
    }
    if (vm.count("backend")) o.backend = raw.backend;
    require_backend(o.backend);
    for (const char* gpu_only : {"gpu-pyramid", "compaction", "devices", "frames-in-flight"})
        if (vm.count(gpu_only) && o.backend != "gpu")
            throw UsageError(std::string("--") + gpu_only, "applies to --backend gpu only");
    if (vm.count("gpu-pyramid")) o.gpu.pyramid = raw.gpu_pyramid;
    if (vm.count("compaction")) o.gpu.compaction = raw.compaction;
    if (vm.count("devices")) o.gpu.devices = cli::parse_device_list("--devices", raw.devices);
    if (vm.count("frames-in-flight")) {
        o.gpu.frames_in_flight = cli::parse_int("--frames-in-flight", raw.frames_in_flight);
        if (o.gpu.frames_in_flight < 1 || o.gpu.frames_in_flight > kMaxFramesInFlight)
            throw UsageError("--frames-in-flight", raw.frames_in_flight + " is out of range (1.." +
                                                       std::to_string(kMaxFramesInFlight) + ")");
    }
    apply_numbers(raw, vm, o);
    apply_grouping(raw, vm, o);
    return o;
}

}  // namespace

std::optional<Options> parse_options(int argc, const char* const* argv, std::ostream& help_out) {
    Raw raw;
    const po::options_description visible = visible_options(raw);
    po::variables_map vm;
    if (!parse_run_command_line(argc, argv, visible, raw.run, vm, help_out, kUsage, kExamples)) return std::nullopt;
    Options o = detector_options(raw, vm);
    if (!vm.count("frames-in-flight")) o.gpu.frames_in_flight = kFramesInFlight;  // a run of many frames
    apply_run_options(raw.run, vm, o);
    return o;
}

Options parse_detector_options(const std::vector<std::string>& args) {
    std::vector<const char*> argv{"cascade-detect"};
    for (const std::string& a : args) argv.push_back(a.c_str());
    Raw raw;
    const po::options_description visible = visible_options(raw);
    po::variables_map vm;
    std::ostringstream help;
    if (!parse_run_command_line(static_cast<int>(argv.size()), argv.data(), visible, raw.run, vm, help, kUsage,
                                kExamples))
        throw UsageError("--help", "is not a detector option");
    if (!raw.run.inputs.empty()) throw UsageError(raw.run.inputs.front(), "is not a detector option");
    return detector_options(raw, vm);
}

}  // namespace cascade::detect
