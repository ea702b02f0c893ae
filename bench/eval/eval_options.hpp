// cascade-eval's command line: one subcommand per job, each parsed strictly into its options struct.
// Bad options throw cli::UsageError (exit code 2) naming the option; --help prints the usage and gives
// nullopt.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <variant>
#include <vector>

#include "bench/eval/composite_set.hpp"
#include "bench/eval/opencv_hog.hpp"
#include "bench/eval/protocols.hpp"
#include "bench/eval/test_sets.hpp"

namespace cascade::eval {

// Files measured side by side (models, or cascade-detect runs), each with the label of its curve.
struct Labelled {
    std::vector<std::string> files;
    std::vector<std::string> labels;  // one per file (the file's stem when not given)
};

struct Outputs {
    std::string json;  // empty: JSON on stdout
    std::string plot;  // empty: none
};

struct WindowCommand {
    Labelled models;
    std::vector<HogReference> references;  // reference curves beside the models
    TestSplit split;
    ScanParams scan;
    Outputs outputs;
};

// Either models (--model: scanned here) or cascade-detect runs (--detections RUN.json: scored as they are,
// only params.min_iou applies), never both.
struct ImageCommand {
    Labelled models;
    Labelled detections;
    std::vector<std::string> annotations;
    ImageProtocolParams params;
    Outputs outputs;
};

struct CompositeCommand {
    TestSplit split;
    CompositeParams params;
    std::string folder;
};

struct CompareCommand {
    std::vector<std::string> results;
    Outputs outputs;
};

using Command = std::variant<WindowCommand, ImageCommand, CompositeCommand, CompareCommand>;

std::optional<Command> parse_command(int argc, char** argv, std::ostream& help_out);

}  // namespace cascade::eval
