// A PNG of the miss-rate curves of one or more models on log-log axes (per window: FPPW 1e-6 .. 1e-1; per
// image: FPPI 1e-3 .. 10, as in Dollar et al.), one colour per model, with a legend of labels and summaries
// (miss rate at 1e-4 FPPW, or the log-average miss rate). Drawn with OpenCV imgproc, written atomically.
#pragma once

#include <string>

#include "bench/eval/eval_result.hpp"

namespace cascade::eval {

// Requires at least one model; at most 8 get distinct colours (then they repeat). Throws InputError naming
// `path` when it cannot be written.
void write_plot(const EvalResult& result, const std::string& path);

}  // namespace cascade::eval
