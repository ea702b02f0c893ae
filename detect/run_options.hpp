// The options every frame-by-frame tool shares (cascade-detect, cascade-match): inputs, video limits, the report
// (--output, --format), annotated pictures and video, --skip-bad, progress and quiet; their --help entries and
// their checks. A tool adds its own options before these.
#pragma once

#include <boost/program_options.hpp>
#include <iosfwd>
#include <string>
#include <vector>

namespace cascade::detect {

enum class Format { json, csv };

struct RunOptions {
    std::string output;  // empty: stdout
    Format format = Format::json;
    std::string annotate_dir;    // empty: none
    std::string annotate_video;  // empty: none
    int max_frames = 0;          // per video; 0: all
    int every = 1;               // every N-th video frame
    bool quiet = false;
    bool progress = false;  // progress bar even when stderr is not a terminal
    bool skip_bad = false;  // skip (and report) unreadable, missing or too small inputs rather than stop
    std::vector<std::string> inputs;  // as given; "@FILE" is a list file (--list FILE is appended as "@FILE")
};

// The option texts as given, before they are checked.
struct RunOptionTexts {
    std::string output, format, annotate_dir, annotate_video, max_frames, every;
    std::vector<std::string> lists, inputs;
};

// add_run_options: the shared options' entries; `found` names what the report lists ("detections",
// "matches"), `smallest` what every input must be at least as large as ("the model window").
void add_run_options(boost::program_options::options_description& options, RunOptionTexts& texts,
                     const std::string& found, const std::string& smallest);

// apply_run_options: checks the shared options of a parsed command line into `o`; UsageError naming the option.
void apply_run_options(const RunOptionTexts& texts, const boost::program_options::variables_map& vm, RunOptions& o);

// parse_run_command_line: argv against `visible` plus the positional INPUTs (into texts.inputs), with Boost's
//   option guessing off. On --help prints `usage`, the options and `examples` to help_out and returns false;
//   otherwise fills vm and returns true. UsageError naming the option for any problem Boost finds.
bool parse_run_command_line(int argc, const char* const* argv,
                            const boost::program_options::options_description& visible, RunOptionTexts& texts,
                            boost::program_options::variables_map& vm, std::ostream& help_out, const char* usage,
                            const char* examples);

const char* format_name(Format format);

}  // namespace cascade::detect
