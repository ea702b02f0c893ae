#include "bench/eval/eval_options.hpp"

#include <boost/program_options.hpp>
#include <filesystem>
#include <utility>

#include "bench/eval/split_options.hpp"
#include "cli/output_paths.hpp"
#include "cli/program_options.hpp"
#include "cli/usage_error.hpp"
#include "cli/values.hpp"

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace cascade::eval {

namespace {

using cli::parse_int;
using cli::parse_real;
using cli::UsageError;
using cli::check_writable_path;

constexpr const char* kUsage = R"(Usage: cascade-eval COMMAND [options]

Measures boosted-cascade detectors (the project's XML, OpenCV's LBP cascade XML, packed models):
  window     per-window protocol: the centred window of each positive crop, every window of a scan of
             person-free images; miss rate against false positives per window (DET), at 1e-4 and 1e-5 FPPW
  image      per-image protocol: detections on annotated images matched to the boxes (IoU >= 0.5, one match
             per box, greedy by score); miss rate against false positives per image, log-average miss rate
             over 1e-2..1 FPPI (Dollar et al.); of a model scanned here, or of cascade-detect runs
             (--detections RUN.json, CPU or GPU backend)
  composite  writes a composite annotated test set (held-out crops pasted into held-out person-free photos,
             INRIA annotation files) for `image` when no annotated photographs are at hand
  compare    draws the curves of several result files on one plot
  keypoints  corner detectors (FOAGDD, OpenCV's Harris, Shi-Tomasi, FAST): repeatability and localisation
             error under rotation, scale, homography, noise, JPEG and illumination changes of real images

Results are JSON (stdout, or --json FILE) and a PNG plot (--plot FILE.png); several --model options put
several curves on one plot. Files are written to a temporary and renamed. Bad options exit with 2, bad input
files with 1, with one line naming the option or file. Run 'cascade-eval COMMAND --help' for the options.

Examples:
  cascade-eval window --model models/pedestrian_hog.xml --label HoG --model models/pedestrian_lbp_64x128.xml \
      --label LBP --pos ../shared/data/inria/96X160H96/Train/pos --neg ../shared/data/negatives \
      --neg ../shared/data/negatives_web --holdout 0.2 --seed 1 --json det.json --plot det.png
  cascade-eval window --model models/pedestrian_hog.xml --reference opencv-hog \
      --pos ../shared/data/inria/96X160H96/Train/pos --neg ../shared/data/inria/Train/neg --holdout 0.2 \
      --seed 1 --stride 8 --scale-factor 1.2 --plot det.png     (OpenCV's HOG people detector beside it)
  cascade-eval composite --pos ../shared/data/inria/96X160H96/Train/pos --neg ../shared/data/negatives \
      --neg ../shared/data/negatives_web --holdout 0.2 --seed 1 --output composite/
  cascade-eval image --model models/pedestrian_hog.xml --annotations composite/annotations.lst \
      --json fppi.json --plot fppi.png
  cascade-detect --backend gpu --output gpu.json composite/images    (likewise --backend cpu: cpu.json)
  cascade-eval image --detections cpu.json --label CPU --detections gpu.json --label GPU \
      --annotations composite/annotations.lst --json runs.json --plot runs.png
  cascade-eval compare det.json other_det.json --plot both.png
)";

struct Raw {
    std::vector<std::string> models, labels, detections, annotations, results, references;
    SplitText split;
    std::string stride, scale_factor, first_scale, threads, group, nms_iou, min_neighbors, min_iou,
        json, plot, swept_stages, images, max_people, min_scale, max_scale, output;
};

void add_models(po::options_description& o, Raw& raw) {
    o.add_options()
        ("model,m", po::value(&raw.models)->value_name("FILE"), "a model to measure; repeat for several curves")
        ("label", po::value(&raw.labels)->value_name("TEXT"),
         "the name of each curve in the JSON and the plot, in the order of the files (default: the file's stem)");
}

void add_outputs(po::options_description& o, Raw& raw) {
    o.add_options()
        ("json", po::value(&raw.json)->value_name("FILE"), "write the results as JSON to FILE (default: stdout)")
        ("plot", po::value(&raw.plot)->value_name("FILE.png"), "draw the curves into a PNG (default: none)");
}

void add_scan(po::options_description& o, Raw& raw, const char* stride_default, const char* scale_default) {
    const std::string stride_text =
        std::string("window step in pixels on every pyramid level, 1..64 (default: ") + stride_default + ")";
    const std::string scale_text = std::string("pyramid step, 1.01..4 (default: ") + scale_default + ")";
    o.add_options()
        ("stride", po::value(&raw.stride)->value_name("N"), stride_text.c_str())
        ("scale-factor", po::value(&raw.scale_factor)->value_name("F"), scale_text.c_str())
        ("threads", po::value(&raw.threads)->value_name("N"), "worker threads, 0 for all cores (default: 0)");
}

// Parses `args` against `options`; prints help and returns false for --help.
bool parse(const std::vector<std::string>& args, const po::options_description& options, const char* synopsis,
           std::ostream& help_out, const po::positional_options_description* positional = nullptr) {
    po::variables_map vm;
    po::command_line_parser parser(args);
    parser.options(options);
    if (positional) parser.positional(*positional);
    if (cli::parse_options(parser, vm)) return true;
    help_out << synopsis << "\n\n" << options;
    return false;
}

std::string required_one(const std::string& value, const char* option) {
    if (value.empty()) throw UsageError(option, "is required");
    return value;
}

Labelled labelled_of(const std::vector<std::string>& files, const std::vector<std::string>& labels,
                     const std::string& option) {
    if (!labels.empty() && labels.size() != files.size())
        throw UsageError("--label", "give one per " + option + " (" + std::to_string(files.size()) + "), or none");
    Labelled m{files, labels};
    if (m.labels.empty())
        for (const std::string& path : files) m.labels.push_back(fs::path(path).stem().string());
    return m;
}

Labelled models_of(const Raw& raw) {
    if (raw.models.empty()) throw UsageError("--model", "at least one model is required");
    return labelled_of(raw.models, raw.labels, "--model");
}

// --detections instead of --model: the runs were scanned and grouped by cascade-detect, so the options that
// say how to scan and group are refused rather than ignored.
Labelled detections_of(const Raw& raw) {
    if (!raw.models.empty())
        throw UsageError("--detections", "cannot be combined with --model (measure each, then draw both with compare)");
    const std::pair<const char*, const std::string*> scan_options[] = {
        {"--stride", &raw.stride},   {"--scale-factor", &raw.scale_factor}, {"--first-scale", &raw.first_scale},
        {"--threads", &raw.threads}, {"--group", &raw.group},               {"--nms-iou", &raw.nms_iou},
        {"--min-neighbors", &raw.min_neighbors}, {"--swept-stages", &raw.swept_stages}};
    for (const auto& [option, value] : scan_options)
        if (!value->empty())
            throw UsageError(option, "applies to --model only (cascade-detect scanned and grouped the --detections)");
    return labelled_of(raw.detections, raw.labels, "--detections");
}

Outputs outputs_of(const Raw& raw) {
    check_writable_path("--json", raw.json);
    check_writable_path("--plot", raw.plot);
    std::vector<std::string> inputs;
    for (const auto* files : {&raw.models, &raw.detections, &raw.split.positives, &raw.split.negatives,
                              &raw.annotations, &raw.results})
        inputs.insert(inputs.end(), files->begin(), files->end());
    cli::check_not_an_input("--json", raw.json, inputs);
    cli::check_not_an_input("--plot", raw.plot, inputs);
    if (!raw.plot.empty() && fs::path(raw.plot).extension() != ".png")
        throw UsageError("--plot", "'" + raw.plot + "' must end in .png");
    return {raw.json, raw.plot};
}

ScanParams scan_of(const Raw& raw, int stride, double scale_factor) {
    ScanParams scan;
    scan.rule.stride = stride;
    scan.pyramid.scale_factor = scale_factor;
    if (!raw.stride.empty()) {
        scan.rule.stride = parse_int("--stride", raw.stride);
        if (scan.rule.stride < 1 || scan.rule.stride > 64)
            throw UsageError("--stride", raw.stride + " is out of range (1..64)");
    }
    if (!raw.scale_factor.empty()) {
        scan.pyramid.scale_factor = parse_real("--scale-factor", raw.scale_factor);
        cli::check_scale_factor("--scale-factor", scan.pyramid.scale_factor);
    }
    if (!raw.threads.empty()) {
        scan.threads = parse_int("--threads", raw.threads);
        cli::check_threads("--threads", scan.threads);
    }
    return scan;
}

po::options_description base(const char* title) {
    po::options_description o(title, 112, 56);
    o.add_options()("help,h", "show this help and exit");
    return o;
}

HogReference reference_of(const std::string& name) {
    for (const HogReference r : {HogReference::opencv, HogReference::opencv_gray})
        if (name == reference_name(r)) return r;
    throw UsageError("--reference", "unknown reference '" + name + "' (choose opencv-hog or opencv-hog-gray)");
}

std::optional<Command> window_command(const std::vector<std::string>& args, std::ostream& help_out) {
    Raw raw;
    po::options_description o = base("Options of cascade-eval window");
    add_models(o, raw);
    o.add_options()
        ("reference", po::value(&raw.references)->value_name("NAME"),
         "a reference detector's curve beside the models, scored on the same windows: opencv-hog (OpenCV's "
         "HOGDescriptor with its default people detector, Dalal and Triggs' linear SVM, on the colour images) or "
         "opencv-hog-gray (the same on the grayscale images the cascades see); repeatable; needs a 64x128 "
         "window's crops");
    add_split_options(o, raw.split);
    add_scan(o, raw, "4", "1.05");
    add_outputs(o, raw);
    if (!parse(args, o, "Usage: cascade-eval window (--model FILE | --reference NAME)... --pos SRC --neg SRC [options]",
               help_out))
        return std::nullopt;
    WindowCommand c;
    for (const std::string& name : raw.references) c.references.push_back(reference_of(name));
    if (raw.models.empty() && c.references.empty())
        throw UsageError("--model", "give at least one --model or --reference");
    if (!raw.models.empty()) c.models = models_of(raw);
    if (raw.models.empty() && !raw.labels.empty()) throw UsageError("--label", "labels the --model curves; give a --model");
    c.split = split_of(raw.split);
    if (c.split.margin && !c.references.empty())
        throw UsageError("--pos-margin", "the reference detectors take the window centred in each crop");
    c.scan = scan_of(raw, 4, 1.05);
    c.outputs = outputs_of(raw);
    return c;
}

Grouping grouping_of(const std::string& text) {
    if (text.empty() || text == "nms") return Grouping::nms;
    if (text == "opencv") return Grouping::opencv;
    if (text == "meanshift") return Grouping::mean_shift;
    throw UsageError("--group", "unknown mode '" + text + "' (choose nms, opencv or meanshift)");
}

std::optional<Command> image_command(const std::vector<std::string>& args, std::ostream& help_out) {
    Raw raw;
    po::options_description o = base("Options of cascade-eval image");
    add_models(o, raw);
    o.add_options()
        ("detections", po::value(&raw.detections)->value_name("RUN.json"),
         "instead of --model: the detections of a cascade-detect run (its --output JSON, CPU or GPU backend), "
         "scored as they are, their score swept; repeatable. Its images are matched to the annotated ones by "
         "path (absolute, normalised), then by file name where that is unique; every annotated image must be "
         "among them (others are left out). The scan and grouping options are --model's only")
        ("annotations", po::value(&raw.annotations)->value_name("SRC"),
         "annotated images: an INRIA annotation file, a folder or list file of them (annotations.lst), a dlib "
         "imglab XML or an opencv_createsamples info file; repeatable");
    add_scan(o, raw, "4", "1.1");
    o.add_options()
        ("first-scale", po::value(&raw.first_scale)->value_name("S"),
         "the pyramid's smallest scale, 0.1 <= S <= 1 (below 1: upsampled levels for objects smaller than the "
         "window) (default: 1)")
        ("group", po::value(&raw.group)->value_name("MODE"),
         "merging of the windows before matching: nms (greedy IoU suppression, score = the window's), opencv "
         "(groupRectangles, score = the group's best) or meanshift (score = the mode's density) (default: nms)")
        ("nms-iou", po::value(&raw.nms_iou)->value_name("T"), "--group nms: suppression IoU (default: 0.3)")
        ("min-neighbors", po::value(&raw.min_neighbors)->value_name("N"),
         "--group opencv: as cascade-detect (default: 3)")
        ("min-iou", po::value(&raw.min_iou)->value_name("T"),
         "overlap a match needs, 0 < T <= 1 (default: 0.5, PASCAL)")
        ("swept-stages", po::value(&raw.swept_stages)->value_name("K"),
         "windows reaching the last K stages are kept, ranked by depth then stage sum, and the threshold is swept "
         "over them: 1 sweeps the final score; larger K reaches higher FPPI (default: 1)");
    add_outputs(o, raw);
    const char* synopsis =
        "Usage: cascade-eval image (--model FILE | --detections RUN.json) --annotations SRC [options]";
    if (!parse(args, o, synopsis, help_out)) return std::nullopt;
    ImageCommand c;
    if (raw.detections.empty() && raw.models.empty())
        throw UsageError("--model", "give at least one --model, or --detections RUN.json");
    if (raw.detections.empty())
        c.models = models_of(raw);
    else
        c.detections = detections_of(raw);
    if (raw.annotations.empty()) throw UsageError("--annotations", "is required");
    c.annotations = raw.annotations;
    c.params.scan = scan_of(raw, 4, 1.1);
    if (!raw.first_scale.empty()) {
        c.params.scan.pyramid.first_scale = parse_real("--first-scale", raw.first_scale);
        if (!(c.params.scan.pyramid.first_scale >= 0.1 && c.params.scan.pyramid.first_scale <= 1.0))
            throw UsageError("--first-scale", raw.first_scale + " is out of range (0.1 <= S <= 1)");
    }
    c.params.grouping.method = grouping_of(raw.group);
    if (!raw.nms_iou.empty()) {
        const double t = parse_real("--nms-iou", raw.nms_iou);
        if (!(t > 0.0 && t <= 1.0)) throw UsageError("--nms-iou", raw.nms_iou + " is out of range (0 < T <= 1)");
        c.params.grouping.nms_iou = static_cast<float>(t);
    }
    if (!raw.min_neighbors.empty()) {
        c.params.grouping.min_neighbors = parse_int("--min-neighbors", raw.min_neighbors);
        if (c.params.grouping.min_neighbors < 0)
            throw UsageError("--min-neighbors", raw.min_neighbors + " is negative");
    }
    if (!raw.min_iou.empty()) {
        c.params.min_iou = parse_real("--min-iou", raw.min_iou);
        if (!(c.params.min_iou > 0.0 && c.params.min_iou <= 1.0))
            throw UsageError("--min-iou", raw.min_iou + " is out of range (0 < T <= 1)");
    }
    if (!raw.swept_stages.empty()) {
        c.params.swept_stages = parse_int("--swept-stages", raw.swept_stages);
        if (c.params.swept_stages < 1) throw UsageError("--swept-stages", raw.swept_stages + " is out of range (>= 1)");
    }
    c.outputs = outputs_of(raw);
    return c;
}

std::optional<Command> composite_command(const std::vector<std::string>& args, std::ostream& help_out) {
    Raw raw;
    po::options_description o = base("Options of cascade-eval composite");
    add_split_options(o, raw.split);
    o.add_options()
        ("output,o", po::value(&raw.output)->value_name("DIR"),
         "folder to write images/, annotations/ and annotations.lst into (created)")
        ("images", po::value(&raw.images)->value_name("N"), "pictures to compose, 1..100000 (default: 200)")
        ("max-people", po::value(&raw.max_people)->value_name("N"),
         "people per picture: 1..N, 1 <= N <= 20 (default: 3)")
        ("min-scale", po::value(&raw.min_scale)->value_name("S"),
         "smallest scale of a pasted crop, 0.25..8 (default: 1)")
        ("max-scale", po::value(&raw.max_scale)->value_name("S"),
         "largest scale of a pasted crop, min..8 (default: 2)");
    if (!parse(args, o, "Usage: cascade-eval composite --pos SRC --neg SRC --output DIR [options]", help_out))
        return std::nullopt;
    CompositeCommand c;
    c.split = split_of(raw.split);
    if (c.split.margin) throw UsageError("--pos-margin", "is the window protocol's: composite pastes whole crops");
    c.params.seed = c.split.seed;
    c.folder = required_one(raw.output, "--output");
    if (fs::exists(c.folder) && !fs::is_directory(c.folder))
        throw UsageError("--output", "'" + c.folder + "' is a file");
    if (!raw.images.empty()) {
        c.params.images = parse_int("--images", raw.images);
        if (c.params.images < 1 || c.params.images > 100000)
            throw UsageError("--images", raw.images + " is out of range (1..100000)");
    }
    if (!raw.max_people.empty()) {
        c.params.max_people = parse_int("--max-people", raw.max_people);
        if (c.params.max_people < 1 || c.params.max_people > 20)
            throw UsageError("--max-people", raw.max_people + " is out of range (1..20)");
    }
    if (!raw.min_scale.empty()) c.params.min_scale = parse_real("--min-scale", raw.min_scale);
    if (!raw.max_scale.empty()) c.params.max_scale = parse_real("--max-scale", raw.max_scale);
    if (!(c.params.min_scale >= 0.25 && c.params.min_scale <= 8.0))
        throw UsageError("--min-scale", raw.min_scale + " is out of range (0.25..8)");
    if (!(c.params.max_scale >= c.params.min_scale && c.params.max_scale <= 8.0))
        throw UsageError("--max-scale", raw.max_scale + " is out of range (--min-scale..8)");
    return c;
}

std::optional<Command> compare_command(const std::vector<std::string>& args, std::ostream& help_out) {
    Raw raw;
    po::options_description o = base("Options of cascade-eval compare");
    o.add_options()("results", po::value(&raw.results)->value_name("FILE.json"), "result files (positional)");
    add_outputs(o, raw);
    po::positional_options_description positional;
    positional.add("results", -1);
    const char* synopsis = "Usage: cascade-eval compare RESULT.json... --plot FILE.png [--json FILE]";
    if (!parse(args, o, synopsis, help_out, &positional))
        return std::nullopt;
    if (raw.results.empty()) throw UsageError("compare", "give at least one result file");
    CompareCommand c{raw.results, outputs_of(raw)};
    if (c.outputs.plot.empty() && c.outputs.json.empty()) throw UsageError("--plot", "give --plot or --json (or both)");
    return c;
}

}  // namespace

std::optional<Command> parse_command(int argc, char** argv, std::ostream& help_out) {
    if (argc < 2) throw UsageError("COMMAND", "none given (window, image, composite or compare; --help)");
    const std::string name = argv[1];
    if (name == "--help" || name == "-h") {
        help_out << kUsage;
        return std::nullopt;
    }
    const std::vector<std::string> args(argv + 2, argv + argc);
    if (name == "window") return window_command(args, help_out);
    if (name == "image") return image_command(args, help_out);
    if (name == "composite") return composite_command(args, help_out);
    if (name == "compare") return compare_command(args, help_out);
    throw UsageError(name, "unknown command (choose window, image, composite or compare)");
}

}  // namespace cascade::eval
