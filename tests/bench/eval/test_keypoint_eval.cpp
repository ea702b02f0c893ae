// cascade-eval keypoints end to end on a real image (opencv-doc's building.jpg, 128 pixels on its longer side):
// the JSON has every detector at every transform step, the PNG is written, FOAGDD's corners survive mild
// changes (JPEG at quality 90, noise of sigma 2) with repeatability above 80% and sub-pixel-to-pixel
// localisation; bad options are one-line usage errors. Skips with a message when opencv-doc is absent.
#include <doctest/doctest.h>

#include <filesystem>
#include <set>
#include <string>

#include "cli/json.hpp"
#include "tests/support/test_data.hpp"
#include "tests/support/tool_run.hpp"

using namespace cascade::test;
using cascade::cli::parse_json;

TEST_CASE("cascade-eval keypoints: every detector and transform, FOAGDD repeatable under mild changes") {
    const auto image = system_file("/usr/share/doc/opencv-doc/examples/data/building.jpg");
    if (!image) return;
    TempDir dir;
    const ToolResult r = run_tool(CASCADE_EVAL_EXE, {"keypoints", "--image", *image, "--max-side", "128",
                                                     "--output", dir / "k.json", "--plot", dir / "k.png"});
    REQUIRE(r.code == 0);
    CHECK(std::filesystem::file_size(dir / "k.png") > 1000);
    const auto report = parse_json(read_text(dir / "k.json"));
    std::set<std::string> detectors, families;
    for (const auto& row : report.at("results").items) {
        detectors.insert(row.at("detector").text);
        families.insert(row.at("family").text);
        const double repeatability = row.at("repeatability").number;
        CHECK(repeatability >= 0.0);
        CHECK(repeatability <= 1.0);
        CHECK(row.at("localisation_error").number <= 2.0);  // --eps
        const std::string step = row.at("step").text;
        if (row.at("detector").text == "foagdd" && (step == "q 90" || step == "sigma 2")) {
            CHECK_MESSAGE(repeatability > 0.8, step << ": " << repeatability);
            CHECK(row.at("points").number > 5);
        }
    }
    CHECK(detectors == std::set<std::string>{"fast", "foagdd", "gftt", "harris"});
    CHECK(families.size() == 6);
}

TEST_CASE("cascade-eval keypoints: bad options are one-line usage errors") {
    check_error(run_tool(CASCADE_EVAL_EXE, {"keypoints", "--eps", "0"}), 2, "cascade-eval", "--eps");
    check_error(run_tool(CASCADE_EVAL_EXE, {"keypoints", "--max-side", "10"}), 2, "cascade-eval", "--max-side");
    check_error(run_tool(CASCADE_EVAL_EXE, {"keypoints", "--bogus", "1"}), 2, "cascade-eval", "--bogus");
    check_error(run_tool(CASCADE_EVAL_EXE, {"keypoints", "--image", "/nonexistent.png"}), 1, "cascade-eval",
                "/nonexistent.png");
}
