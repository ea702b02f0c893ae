// What the per-window protocol (protocols.hpp) asks of a detector, so that a cascade and a reference detector
// are scored on exactly the same windows: the score of each positive crop's centred window, and the scores of
// every window of a fixed-stride scan of a negative image at every level of the pyramid of
// common/pyramid.hpp, with the work those windows took. Higher scores are more confident; scores of different
// detectors need not be comparable.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "common/geometry.hpp"
#include "common/model.hpp"
#include "common/scan.hpp"
#include "data/crop_options.hpp"

namespace cascade::eval {

struct WindowScorer {
    Size window;
    std::string work_unit;  // what the work counts: "blocks", "weak learners"
    // (name, value) pairs for the result's settings (e.g. the cascade's depth span).
    std::vector<std::pair<std::string, std::string>> settings;
    // The score of the window centred in the crop at `path` (offset (crop - window) / 2, rounded down).
    // Throws InputError for an unreadable crop or one smaller than the window.
    std::function<double(const std::string& path)> centred;
    // Appends the score of every window of the scan of the image at `path` to `scores` and returns the work
    // they took, summed. Throws InputError for an unreadable image.
    std::function<double(const std::string& path, std::vector<double>& scores)> scan;
};

// A cascade of the project (bench/eval/model_scan.hpp's depth score; work: weak learners evaluated). The
// model must outlive the scorer. Requires scan.rule.stride > 0. With a `margin`, a positive's window is the crop
// minus the margin resized to the model's window (data/positive_samples.hpp's crop_window), not its centre.
WindowScorer cascade_scorer(const Model& model, const ScanParams& scan, const std::optional<data::Margin>& margin);

}  // namespace cascade::eval
