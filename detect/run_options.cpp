#include "detect/run_options.hpp"

#include <filesystem>
#include <optional>
#include <ostream>

#include "cli/output_paths.hpp"
#include "cli/program_options.hpp"
#include "cli/usage_error.hpp"
#include "cli/values.hpp"

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace cascade::detect {

using cli::UsageError;
using cli::check_writable_path;
using cli::parse_int;

namespace {

Format parse_format(const std::string& text) {
    if (text == "json") return Format::json;
    if (text == "csv") return Format::csv;
    throw UsageError("--format", "unknown format '" + text + "' (choose json or csv)");
}

std::optional<Format> format_from_extension(const std::string& path) {
    const std::string ext = fs::path(path).extension().string();
    if (ext == ".json" || ext == ".JSON") return Format::json;
    if (ext == ".csv" || ext == ".CSV") return Format::csv;
    return std::nullopt;
}

void apply_outputs(const RunOptionTexts& raw, const po::variables_map& vm, RunOptions& o) {
    if (vm.count("output") && raw.output != "-") {
        if (raw.output.empty()) throw UsageError("--output", "empty file name");
        o.output = raw.output;
        check_writable_path("--output", o.output);
    }
    const std::optional<Format> by_extension =
        o.output.empty() ? std::nullopt : format_from_extension(o.output);
    if (vm.count("format")) {
        o.format = parse_format(raw.format);
        if (by_extension && *by_extension != o.format)
            throw UsageError("--format", raw.format + " contradicts the --output file name " + o.output);
    } else if (!o.output.empty()) {
        if (!by_extension)
            throw UsageError("--output", "cannot tell the format of '" + o.output +
                                             "' (name it .json or .csv, or give --format json|csv)");
        o.format = *by_extension;
    }
    if (vm.count("annotate")) {
        if (raw.annotate_dir.empty()) throw UsageError("--annotate", "empty folder name");
        if (fs::exists(raw.annotate_dir) && !fs::is_directory(raw.annotate_dir))
            throw UsageError("--annotate", "'" + raw.annotate_dir + "' exists and is not a folder");
        o.annotate_dir = raw.annotate_dir;
    }
    if (vm.count("annotate-video")) {
        o.annotate_video = raw.annotate_video;
        const std::string ext = fs::path(o.annotate_video).extension().string();
        if (ext != ".avi" && ext != ".AVI")
            throw UsageError("--annotate-video", "'" + o.annotate_video + "' must end in .avi (MJPG AVI)");
        check_writable_path("--annotate-video", o.annotate_video);
    }
}

void apply_videos(const RunOptionTexts& raw, const po::variables_map& vm, RunOptions& o) {
    if (vm.count("max-frames")) {
        o.max_frames = parse_int("--max-frames", raw.max_frames);
        if (o.max_frames < 0) throw UsageError("--max-frames", raw.max_frames + " is negative");
    }
    if (vm.count("every")) {
        o.every = parse_int("--every", raw.every);
        if (o.every < 1) throw UsageError("--every", raw.every + " is out of range (must be >= 1)");
    }
}

}  // namespace

void add_run_options(po::options_description& options, RunOptionTexts& raw, const std::string& found,
                     const std::string& smallest) {
    options.add_options()
        ("output,o", po::value(&raw.output)->value_name("FILE"),
         ("write the " + found + " to FILE.json or FILE.csv; - for stdout (default: JSON on stdout)").c_str())
        ("format", po::value(&raw.format)->value_name("json|csv"),
         "output format (default: from the --output extension; json on stdout)")
        ("annotate", po::value(&raw.annotate_dir)->value_name("DIR"),
         "write annotated PNGs into DIR (created if missing): DIR/<name>.png for an image, "
         "DIR/<name>_<frame>.png for video frames (default: none)")
        ("annotate-video", po::value(&raw.annotate_video)->value_name("FILE.avi"),
         "write the processed frames of the (single) video input, annotated, as MJPG AVI (default: none)")
        ("list", po::value(&raw.lists)->value_name("FILE"),
         "read inputs from a list file, like @FILE; repeatable; read after the INPUT arguments (default: none)")
        ("max-frames", po::value(&raw.max_frames)->value_name("N"),
         "process at most N frames of each video, 0 for all (default: 0)")
        ("every", po::value(&raw.every)->value_name("N"), "process every N-th frame of a video (default: 1)")
        ("skip-bad", ("skip an input that cannot be read (missing, corrupt, not an image or video) or is smaller "
         "than " + smallest + ", with a warning on stderr and an entry in the JSON's \"skipped\" (file, reason), "
         "and go on; the run still fails (exit 1) when no input could be read (default: the first bad input "
         "stops the run)").c_str())
        ("progress", "show the progress bar even when stderr is not a terminal (default: only on a terminal)")
        ("quiet,q", "no progress bar, no warnings, no summary line on stderr (default: off)");
}

void apply_run_options(const RunOptionTexts& raw, const po::variables_map& vm, RunOptions& o) {
    apply_videos(raw, vm, o);
    apply_outputs(raw, vm, o);
    o.quiet = vm.count("quiet") > 0;
    o.progress = vm.count("progress") > 0;
    o.skip_bad = vm.count("skip-bad") > 0;
    o.inputs = raw.inputs;
    for (const std::string& list : raw.lists) o.inputs.push_back("@" + list);
    if (o.inputs.empty()) throw UsageError("INPUT", "no input given (see --help)");
    for (const std::string& input : o.inputs)
        if (input.empty() || input == "@") throw UsageError("INPUT", "empty file name");
}

bool parse_run_command_line(int argc, const char* const* argv, const po::options_description& visible,
                            RunOptionTexts& texts, po::variables_map& vm, std::ostream& help_out, const char* usage,
                            const char* examples) {
    po::options_description hidden;
    hidden.add_options()("input", po::value(&texts.inputs));
    po::options_description all;
    all.add(visible).add(hidden);
    po::positional_options_description positional;
    positional.add("input", -1);
    const int style = po::command_line_style::default_style & ~po::command_line_style::allow_guessing;
    po::command_line_parser parser(argc, argv);
    parser.options(all).positional(positional).style(style);
    if (cli::parse_options(parser, vm)) return true;
    help_out << usage << "\n\n" << visible << examples;
    return false;
}

const char* format_name(Format format) { return format == Format::csv ? "csv" : "json"; }

}  // namespace cascade::detect
