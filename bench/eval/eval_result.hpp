// What cascade-eval measures for each model, written as JSON (and read back for --compare and plots).
//
// JSON layout (numbers as %.9g):
//   {"tool": "cascade-eval", "protocol": "window" | "image",
//    "models": [{"label": ..., "model": ..., "settings": {"name": "value", ...},
//                "positives": crops or ground-truth boxes, "units": windows or images, "images": N,
//                "miss_rate_at": [{"false_positives": 1e-4, "miss_rate": 0.27}, ...],
//                "log_average_miss_rate": 0.5 (per-image protocol only),
//                "work_per_window": 5.4, "work_unit": "blocks" (per-window protocol only: the detector's average
//                work on the negative windows, in blocks for HoG, weak learners for LBP),
//                "curve": [[false positives per unit, miss rate, threshold], ...]}]}
// Settings values are strings, so a file reads back exactly as written.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "bench/eval/miss_rate_curve.hpp"

namespace cascade::eval {

enum class Protocol { window, image };

struct ModelResult {
    std::string label;
    std::string model;
    std::vector<std::pair<std::string, std::string>> settings;
    int positives = 0;
    double units = 0.0;  // negative windows scanned, or annotated images
    int images = 0;      // negative images scanned, or annotated images
    std::vector<CurvePoint> curve;
    std::vector<std::pair<double, double>> miss_rate_at;  // (false positives per unit, miss rate)
    double log_average_miss_rate = -1.0;                  // < 0: not measured (per-window protocol)
    double work_per_window = 0.0;                         // average over the negative windows
    std::string work_unit;                                // empty: not measured (per-image protocol)
};

struct EvalResult {
    Protocol protocol = Protocol::window;
    std::vector<ModelResult> models;
};

const char* protocol_name(Protocol p);

// The budgets reported in miss_rate_at: 1e-4 and 1e-5 per window; 1e-2, 1e-1 and 1 per image.
std::vector<double> reported_budgets(Protocol p);

// Fills curve, miss_rate_at and (per image) log_average_miss_rate from the scores of one run.
void summarise(Protocol p, std::vector<double> hit_scores, std::vector<ScoreCount> false_alarms, ModelResult& r);

std::string to_json(const EvalResult& result);
// Writes through common/atomic_file.hpp.
void write_json(const EvalResult& result, const std::string& path);
// Throws InputError naming the file when it is not such a JSON file.
EvalResult read_json(const std::string& path);

}  // namespace cascade::eval
