// Command line of cascade-match: what a run was asked to do, parsed and checked.
//
// parse_options reads argv; on --help it prints the help to `help_out` and returns nullopt. Every problem
// (unknown option, bad value, conflicting options) throws UsageError naming the option. The template itself is
// read later (match/template_set.hpp), where a bad file is an InputError.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "common/covariance_features.hpp"
#include "common/template_score.hpp"
#include "detect/run_options.hpp"

namespace cascade::match {

struct Options : detect::RunOptions {
    std::string template_path;
    MatchMethod method = MatchMethod::ccoeff_normed;
    bool exact = false;              // --method exact: TM_SQDIFF == 0, every such position
    std::optional<CovMetric> covariance;  // --method cov-forstner / cov-jbld: region covariance distances
    bool extended = false;                // --features extended: Tuzel's 9-D features (7-D in grey)
    int step = 4;                         // region covariance: pixels between windows
    int top = 1;                     // 0: all
    std::optional<float> threshold;  // none: the best match only (or the best --top local optima)
    float nms_iou = 0.3f;
    std::vector<double> scales{1.0};  // template sizes searched, as factors of the template's
    bool grey = false;                // match in grey even when the template is in colour
    int threads = 0;                  // 0: all cores
    std::string backend = "cpu";      // or "gpu" (match/map_source.hpp)
};

std::optional<Options> parse_options(int argc, const char* const* argv, std::ostream& help_out);

// "ccoeff_normed", ..., "exact", "cov-forstner" or "cov-jbld".
std::string method_name(const Options& options);

}  // namespace cascade::match
