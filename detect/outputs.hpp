// The detections of a run as JSON or CSV, written to stdout or to a file (through a temporary renamed into
// place, so a failed write leaves nothing).
//
// JSON: {the tool's own members (cascade-detect: "model", "backend", "model_window", "parameters": {...}),
// "files": [every input read, in order],
// "skipped": [{"file", "reason"}...] (--skip-bad; empty otherwise), "detections": [{"file", "frame", "x", "y",
// "w", "h", "score"}...], "frames", "seconds"}; "files" tells an image without detections from one the run
// did not read (cascade-eval image --detections relies on it).
// CSV: header "file,frame,x,y,w,h,score", one row per detection (RFC 4180 quoting of the file name); skipped
// inputs are reported on stderr only.
// Scores are written with 9 significant digits (they read back exactly).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "common/detection.hpp"
#include "detect/run_options.hpp"

namespace cascade::detect {

struct Record {
    std::string file;
    int frame = 0;
    Detection detection;
};

struct Skipped {
    std::string file;
    std::string reason;
};

// A member of the JSON object before "files": its name and its value, already JSON.
using JsonMember = std::pair<std::string, std::string>;

struct Report {
    std::vector<JsonMember> header;  // the tool's own members, in order
    std::vector<std::string> files;  // every input read, in order (a video once)
    std::vector<Skipped> skipped;    // --skip-bad: every input not read, in order, and why
    std::vector<Record> records;
    long frames = 0;
    double seconds = 0.0;
};

std::string format_json(const Report& report);
std::string format_csv(const Report& report);

// The report in options.format, to options.output (atomically) or to stdout when that is empty.
void write_report(const Report& report, const RunOptions& options);

std::string json_number(double value, int digits);  // %.*g
std::string json_size(Size size);                   // {"width": W, "height": H}; null for 0x0

}  // namespace cascade::detect
