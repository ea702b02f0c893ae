// cascade-detect --min-score on real files (OpenCV's frontal-face cascade and the project's running-sum LBP
// model on messi5.jpg, raw windows): above the model's last threshold it keeps exactly the windows scoring at
// least T; below it, every window the model accepts plus those its last stage rejects with a sum >= T, each
// scoring less than every accepted one. Skips with a message when opencv-data / opencv-doc are absent.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "cli/json.hpp"
#include "tests/support/sanitized.hpp"
#include "tests/support/test_data.hpp"
#include "tests/support/tool_run.hpp"

using namespace cascade::test;

namespace {

const std::string kFaceModel = "/usr/share/opencv4/lbpcascades/lbpcascade_frontalface.xml";
const std::string kPhoto = "/usr/share/doc/opencv-doc/examples/data/messi5.jpg";
const std::string kLbpModel = std::string(CASCADE_SOURCE_DIR) + "/models/pedestrian_lbp_64x128.xml";

using Window = std::tuple<int, int, int, int, double>;  // x, y, w, h, score

// The raw windows (--group none) of `model` on the photo, with `extra` options.
std::set<Window> windows(const std::string& model, std::vector<std::string> extra) {
    std::vector<std::string> args = {"-q", "--model", model, "--group", "none"};
    args.insert(args.end(), extra.begin(), extra.end());
    args.push_back(kPhoto);
    const ToolResult r = run_tool(CASCADE_DETECT_EXE, args);
    INFO("stderr: " << r.err);
    REQUIRE(r.code == 0);
    const cascade::cli::Json report = cascade::cli::parse_json(r.out);
    std::set<Window> out;
    for (const cascade::cli::Json& d : report.at("detections").items)
        out.insert({d.at("x").integer(), d.at("y").integer(), d.at("w").integer(), d.at("h").integer(),
                    d.at("score").number});
    return out;
}

// A score as an option value, exactly (std::to_string keeps 6 decimals).
std::string text(double value) {
    char out[40];
    std::snprintf(out, sizeof out, "%.17g", value);
    return out;
}

// Both models in the plain build; under the sanitizers (tools/sanitize) the face cascade only: the running-sum
// model's scans of the photograph took 60-110 s per test case there, and the same code runs for the face model.
std::vector<std::string> models() {
    if (kSanitized) return {kFaceModel};
    return {kFaceModel, kLbpModel};
}

double min_score(const std::set<Window>& w) {
    double low = 1e30;
    for (const Window& x : w) low = std::min(low, std::get<4>(x));
    return low;
}

}  // namespace

TEST_CASE("cascade-detect --min-score above the model's threshold keeps the windows scoring at least T") {
    if (!system_file(kFaceModel) || !system_file(kPhoto)) return;
    for (const std::string& model : models()) {
        CAPTURE(model);
        const std::set<Window> own = windows(model, {});
        REQUIRE(own.size() >= 4);
        std::vector<double> scores;
        for (const Window& w : own) scores.push_back(std::get<4>(w));
        std::sort(scores.begin(), scores.end());
        const double median = scores[scores.size() / 2];
        std::set<Window> expected;
        for (const Window& w : own)
            if (std::get<4>(w) >= median) expected.insert(w);
        CHECK(windows(model, {"--min-score", text(median)}) == expected);
        CHECK(expected.size() < own.size());
    }
}

TEST_CASE("cascade-detect --min-score below the model's threshold adds the windows its last stage rejects") {
    if (!system_file(kFaceModel) || !system_file(kPhoto)) return;
    for (const std::string& model : models()) {
        CAPTURE(model);
        const std::set<Window> own = windows(model, {});
        const double lowest_own = min_score(own);
        std::set<Window> previous = own;
        for (const double below : {0.5, 2.0}) {
            CAPTURE(below);
            const std::set<Window> more = windows(model, {"--min-score", text(lowest_own - below)});
            CHECK(std::includes(more.begin(), more.end(), previous.begin(), previous.end()));
            for (const Window& w : more)
                if (!own.count(w)) {
                    CHECK(std::get<4>(w) < lowest_own);
                    CHECK(std::get<4>(w) >= lowest_own - below - 1e-5 * (1 + std::abs(lowest_own)));
                }
            previous = more;
        }
        // A running sum reaches the last stage only from above the stage before's threshold, so lowering the
        // last threshold adds a bounded set of windows: some, not necessarily more at every step.
        CHECK(previous.size() > own.size());
        // Grouped detections come from those windows too: more of them below the threshold.
        const ToolResult grouped = run_tool(CASCADE_DETECT_EXE, {"-q", "--model", model, "--min-score",
                                                                 text(lowest_own - 2.0), kPhoto});
        REQUIRE(grouped.code == 0);
        CHECK(cascade::cli::parse_json(grouped.out).at("parameters").at("min_score").number ==
              doctest::Approx(lowest_own - 2.0));
    }
}

TEST_CASE("cascade-detect --min-score refuses what is not a finite float in one line, exit code 2") {
    if (!system_file(kFaceModel) || !system_file(kPhoto)) return;
    for (const char* bad : {"abc", "nan", "inf", "1e39", "-1e39"}) {
        CAPTURE(bad);
        check_error(run_tool(CASCADE_DETECT_EXE, {"--model", kFaceModel, "--min-score", bad, kPhoto}), 2,
                    "cascade-detect", "--min-score");
    }
}
