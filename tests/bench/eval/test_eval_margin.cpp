// cascade-eval window --pos-margin: crops measured as the trainers cut them (MIT CBCL's 19x19 faces less a
// 1-pixel margin, resized to the face model's 19x19 window) rather than the window in their centre: the curve
// passes through the model's own decisions on exactly those windows; the option is refused where it cannot
// apply.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "bench/eval/eval_result.hpp"
#include "common/lbp_cpu_detector.hpp"
#include "common/model_io.hpp"
#include "data/image_files.hpp"
#include "data/positive_samples.hpp"
#include "tests/bench/eval/eval_tool_run.hpp"
#include "tests/support/test_data.hpp"
#include "tests/support/tool_run.hpp"

using namespace cascade;
using namespace cascade::test;

namespace {

const std::string kFaceModel = std::string(CASCADE_SOURCE_DIR) + "/models/face_lbp_19x19.xml";

}  // namespace

TEST_CASE("cascade-eval window --pos-margin measures crops as the trainers cut them") {
    const auto data = cascade::test::shared_data_dir();
    if (!data) {
        MESSAGE("SKIP: ../shared/data is absent");
        return;
    }
    const TempDir dir("cascade-eval-margin");
    const std::string pos = list_of_first(*data + "/faces/mit_cbcl_19x19", 80, dir, "pos.lst");
    const std::string neg = list_of_first(*data + "/negatives", 2, dir, "neg.lst");
    const ToolResult r = run_eval({"window", "--model", kFaceModel, "--pos", pos, "--neg", neg, "--pos-margin", "1",
                                   "--json", dir / "w.json"});
    INFO("stderr: " << r.err);
    REQUIRE(r.code == 0);
    const eval::ModelResult m = eval::read_json(dir / "w.json").models.at(0);
    CHECK(m.positives == 80);

    // The detector on each window as cascade-train --pos-margin 1 cuts it, and on the negatives' scan.
    const Model model = load_model(kFaceModel);
    const auto& cascade = std::get<LbpCascade>(model.cascade);
    ScanParams scan;
    scan.rule.stride = 4;
    scan.pyramid.scale_factor = 1.05;
    int accepted = 0;
    for (const std::string& path : data::read_lines(pos)) {
        const GrayImage window = data::crop_window(path, {cascade.window, data::Margin(1), 0.0, false, {}});
        accepted += static_cast<int>(detect_windows(cascade, window.view(), scan).size());
    }
    std::int64_t windows = 0, false_alarms = 0;
    for (const std::string& path : data::read_lines(neg)) {
        ScanStats stats;
        false_alarms += static_cast<std::int64_t>(detect_windows(cascade, data::read_gray(path).view(), scan, &stats).size());
        windows += stats.windows;
    }
    MESSAGE(accepted << " of 80 faces, " << false_alarms << " of " << windows << " negative windows");
    CHECK(accepted > 40);
    CHECK(eval::miss_rate_at(m.curve, static_cast<double>(false_alarms) / static_cast<double>(windows)) ==
          doctest::Approx(1.0 - accepted / 80.0));

    check_error(run_eval({"window", "--reference", "opencv-hog", "--pos", pos, "--neg", neg, "--pos-margin", "0"}), 2,
                "--pos-margin");
    check_error(run_eval({"composite", "--pos", pos, "--neg", neg, "--pos-margin", "0", "--output", dir / "c"}), 2,
                "--pos-margin");
}
