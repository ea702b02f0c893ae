#include "match/options.hpp"

#include <boost/program_options.hpp>
#include <ostream>
#include <cmath>
#include <sstream>

#include "cli/usage_error.hpp"
#include "cli/values.hpp"

namespace po = boost::program_options;

namespace cascade::match {

using cli::UsageError;
using cli::parse_int;
using cli::parse_real;

namespace {

constexpr const char* kUsage = R"(Usage: cascade-match --template T.png [options] INPUT...

Finds a template in images, folders, list files and videos with OpenCV's cv::matchTemplate scores (the same
six TM_* definitions and values, computed exactly in integers before OpenCV's finishing step), exact equality
or region covariance distances, and writes every match (file, frame, x, y, w, h, score) as JSON or CSV,
optionally with annotated images or an annotated video.
A colour template is matched in colour (the channels' sums added, as OpenCV does), a grey one in grey. By
default each frame gives its best position; --threshold and --top give every local optimum passing the
threshold, best first, after non-maximum suppression. INPUT is an image file; a folder (its images, sorted by
name, not recursive); @LIST, a text file with one path per line; or a video. Every input must be readable
and at least as large as the (largest scaled) template: the first bad input stops the run with exit code 1
(2 for bad options), and then no output file is left behind; --skip-bad skips and reports it instead.)";

constexpr const char* kExamples = R"(
Examples:
  cascade-match --template logo.png photo.jpg
  cascade-match --template waldo.png --method exact --output found.json --annotate marked/ pages/
  cascade-match --template car.png --method ccoeff_normed --threshold 0.8 --top 10 --scales 0.8,1,1.25 \
      --output cars.csv --annotate-video cars.avi street.mp4
)";

struct Raw {
    std::string template_path, method, top, threshold, nms_iou, scales, threads, features, step, backend;
    detect::RunOptionTexts run;
};

po::options_description visible_options(Raw& raw) {
    po::options_description options("Options", 112, 56);
    options.add_options()
        ("help,h", "show this help and exit")
        ("template,t", po::value(&raw.template_path)->value_name("FILE"), "the template image (required)")
        ("method", po::value(&raw.method)->value_name("M"),
         "sqdiff, sqdiff_normed, ccorr, ccorr_normed, ccoeff or ccoeff_normed (OpenCV's TM_* modes; the squared "
         "differences are best lowest, the others highest), or exact: every position equal to the template in "
         "every pixel (TM_SQDIFF == 0, tested with an early exit), or cov-forstner / cov-jbld: region covariance "
         "of each window, --step apart, against the template's, by Foerstner's metric or the Jensen-Bregman "
         "LogDet divergence (best lowest) (default: ccoeff_normed)")
        ("features", po::value(&raw.features)->value_name("SET"),
         "region covariance features: basic ([R, G, B, Ix, Iy], Sobel derivatives of the grey image; [I, Ix, Iy] "
         "in grey) or extended ([x, y, R, G, B, |Ix|, |Iy|, |Ixx|, |Iyy|]) (default: basic)")
        ("step", po::value(&raw.step)->value_name("N"),
         "region covariance: pixels between neighbouring windows, 1..64 (default: 4)")
        ("threshold", po::value(&raw.threshold)->value_name("T"),
         "report every local optimum scoring <= T (squared differences) or >= T (the others), not just the best "
         "(default: none)")
        ("top", po::value(&raw.top)->value_name("K"),
         "at most K matches per frame, best first; 0 for all (default: 1; --method exact: all)")
        ("nms-iou", po::value(&raw.nms_iou)->value_name("F"),
         "drop a match whose IoU with a better one is > F, 0 < F <= 1 (default: 0.3)")
        ("scales", po::value(&raw.scales)->value_name("S,S,..."),
         "template sizes searched, as factors of its own, each 0.05..20 (resized with area averaging below 1, "
         "bilinear above); compare scores across sizes only with the normalised modes (default: 1)")
        ("grey", "match in grey even when the template is in colour (default: off)")
        ("backend", po::value(&raw.backend)->value_name("NAME"),
         "where the maps are computed: cpu (the reference), or gpu in a build with CUDA (the same maps: integer "
         "sums equal, distances within 1e-6) (default: cpu)")
        ("threads", po::value(&raw.threads)->value_name("N"), "worker threads, 0 for all cores (default: 0)");
    add_run_options(options, raw.run, "matches", "the template");
    return options;
}

const char* const kMethodNames[] = {"sqdiff", "sqdiff_normed", "ccorr", "ccorr_normed", "ccoeff", "ccoeff_normed"};

void parse_method(const std::string& text, Options& o) {
    for (int m = 0; m < 6; ++m)
        if (text == kMethodNames[m]) {
            o.method = static_cast<MatchMethod>(m);
            return;
        }
    if (text == "cov-forstner" || text == "cov-jbld") {
        o.covariance = text == "cov-forstner" ? CovMetric::forstner : CovMetric::jbld;
        o.method = MatchMethod::sqdiff;  // peaks: lower is better
        return;
    }
    if (text != "exact")
        throw UsageError("--method", "unknown method '" + text + "' (choose sqdiff, sqdiff_normed, ccorr, "
                                     "ccorr_normed, ccoeff, ccoeff_normed, exact, cov-forstner or cov-jbld)");
    o.exact = true;
    o.method = MatchMethod::sqdiff;
    o.top = 0;
}

std::vector<double> parse_scales(const std::string& text) {
    std::vector<double> scales;
    std::stringstream in(text);
    std::string item;
    while (std::getline(in, item, ',')) {
        const double s = parse_real("--scales", item);
        if (!(s >= 0.05 && s <= 20)) throw UsageError("--scales", item + " is out of range (0.05..20)");
        scales.push_back(s);
    }
    if (scales.empty() || text.back() == ',') throw UsageError("--scales", "'" + text + "' is not a list of factors");
    return scales;
}

void apply_covariance(const Raw& raw, const po::variables_map& vm, Options& o) {
    for (const char* option : {"features", "step"})
        if (vm.count(option) && !o.covariance)
            throw UsageError(std::string("--") + option, "applies to --method cov-forstner or cov-jbld only");
    if (vm.count("features")) {
        if (raw.features != "basic" && raw.features != "extended")
            throw UsageError("--features", "unknown set '" + raw.features + "' (choose basic or extended)");
        o.extended = raw.features == "extended";
    }
    if (vm.count("step")) {
        o.step = parse_int("--step", raw.step);
        if (o.step < 1 || o.step > 64) throw UsageError("--step", raw.step + " is out of range (1..64)");
    }
}

void apply_matching(const Raw& raw, const po::variables_map& vm, Options& o) {
    if (!vm.count("template")) throw UsageError("--template", "is required (the image to find)");
    if (raw.template_path.empty()) throw UsageError("--template", "empty file name");
    o.template_path = raw.template_path;
    if (vm.count("method")) parse_method(raw.method, o);
    if (vm.count("top")) {
        o.top = parse_int("--top", raw.top);
        if (o.top < 0) throw UsageError("--top", raw.top + " is negative");
    }
    if (vm.count("threshold")) {
        if (o.exact) throw UsageError("--threshold", "does not apply to --method exact (its score is 0)");
        const double t = parse_real("--threshold", raw.threshold);
        if (!(std::abs(t) <= 3.4e38)) throw UsageError("--threshold", raw.threshold + " is out of range (a float)");
        o.threshold = static_cast<float>(t);
    }
    if (vm.count("nms-iou")) {
        const double iou = parse_real("--nms-iou", raw.nms_iou);
        if (!(iou > 0.0 && iou <= 1.0)) throw UsageError("--nms-iou", raw.nms_iou + " is out of range (0 < F <= 1)");
        o.nms_iou = static_cast<float>(iou);
    }
    if (vm.count("scales")) o.scales = parse_scales(raw.scales);
    apply_covariance(raw, vm, o);
    o.grey = vm.count("grey") > 0;
    if (vm.count("backend")) {
        if (raw.backend != "cpu" && raw.backend != "gpu")
            throw UsageError("--backend", "unknown backend '" + raw.backend + "' (choose cpu or gpu)");
        o.backend = raw.backend;
    }
    if (vm.count("threads")) {
        o.threads = parse_int("--threads", raw.threads);
        cli::check_threads("--threads", o.threads);
    }
}

}  // namespace

std::string method_name(const Options& options) {
    if (options.exact) return "exact";
    if (options.covariance) return *options.covariance == CovMetric::forstner ? "cov-forstner" : "cov-jbld";
    return kMethodNames[static_cast<int>(options.method)];
}

std::optional<Options> parse_options(int argc, const char* const* argv, std::ostream& help_out) {
    Raw raw;
    const po::options_description visible = visible_options(raw);
    po::variables_map vm;
    if (!detect::parse_run_command_line(argc, argv, visible, raw.run, vm, help_out, kUsage, kExamples))
        return std::nullopt;
    Options o;
    apply_matching(raw, vm, o);
    apply_run_options(raw.run, vm, o);
    return o;
}

}  // namespace cascade::match
