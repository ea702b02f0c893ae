// cascade-eval end to end: its one-line errors for bad options and bad input files (nothing written), and on
// real data (../shared/data; skipped with "SKIP:" without it) that its per-window curve agrees with the CPU
// detector's own decisions and counts, and that a composite set reads back and measures.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "bench/eval/eval_result.hpp"
#include "bench/eval/test_sets.hpp"
#include "common/cov_cpu_detector.hpp"
#include "common/haar_cpu_detector.hpp"
#include "common/hog_cpu_detector.hpp"
#include "common/lbp_cpu_detector.hpp"
#include "common/model_io.hpp"
#include "data/annotations.hpp"
#include "data/image_files.hpp"
#include "tests/bench/eval/eval_tool_run.hpp"
#include "tests/support/sanitized.hpp"
#include "tests/support/test_data.hpp"
#include "tests/support/tool_run.hpp"

namespace fs = std::filesystem;
using namespace cascade;
using namespace cascade::test;

TEST_CASE("cascade-eval --help names the commands, and each command's --help its options") {
    const ToolResult r = run_eval({"--help"});
    CHECK(r.code == 0);
    for (const char* word : {"window", "image", "composite", "compare", "Examples"})
        CHECK(r.out.find(word) != std::string::npos);
    const ToolResult w = run_eval({"window", "--help"});
    CHECK(w.code == 0);
    for (const char* option : {"--model", "--pos", "--neg", "--holdout", "--stride", "--json", "--plot"})
        CHECK(w.out.find(option) != std::string::npos);
}

TEST_CASE("cascade-eval: bad options give one line, exit code 2, and no file") {
    const TempDir dir("cascade-eval-test");
    check_error(run_eval({}), 2, "COMMAND");
    check_error(run_eval({"measure"}), 2, "measure");
    check_error(run_eval({"window", "--pos", "p", "--neg", "n"}), 2, "--model");
    check_error(run_eval({"window", "--model", kHogModel, "--neg", "n"}), 2, "--pos");
    check_error(run_eval({"window", "--model", kHogModel, "--pos", "p", "--neg", "n", "--holdout", "1.5"}), 2,
                "--holdout");
    check_error(run_eval({"window", "--model", kHogModel, "--pos", "p", "--neg", "n", "--stride", "0"}), 2, "--stride");
    check_error(run_eval({"window", "--model", kHogModel, "--pos", "p", "--neg", "n", "--scale-factor", "x"}), 2,
                "--scale-factor");
    check_error(run_eval({"window", "--model", kHogModel, "--label", "a", "--label", "b", "--pos", "p", "--neg", "n"}),
                2, "--label");
    check_error(run_eval({"window", "--model", kHogModel, "--pos", "p", "--neg", "n", "--plot", dir / "curve.jpg"}), 2,
                "--plot");
    check_error(
        run_eval({"window", "--model", kHogModel, "--pos", "p", "--neg", "n", "--json", dir / "no/such/dir.json"}), 2,
        "--json");
    check_error(run_eval({"window", "--model", kHogModel, "--bogus"}), 2, "bogus");
    check_error(run_eval({"window", "--model", kHogModel, "--pos", "p", "--neg", "n", "--scale-factor", "1.0000001"}), 2,
                "--scale-factor: 1.0000001 is out of range (1.01..4");
    check_error(run_eval({"window", "--model", kHogModel, "--pos", "p", "--neg", "n", "--threads", "100000"}), 2,
                "--threads: 100000 is out of range");
    check_error(run_eval({"window", "--model", kHogModel, "--pos", "p", "--neg", "n", "--json", kHogModel}), 2,
                "--json: '" + std::string(kHogModel) + "' is an input; it would be overwritten");
    check_error(run_eval({"image", "--model", kHogModel, "--annotations", "a", "--swept-stages", "0"}), 2,
                "--swept-stages");
    check_error(run_eval({"image", "--model", kHogModel, "--annotations", "a", "--min-iou", "0"}), 2, "--min-iou");
    check_error(run_eval({"composite", "--pos", "p", "--neg", "n"}), 2, "--output");
    check_error(run_eval({"composite", "--pos", "p", "--neg", "n", "--output", dir / "c", "--max-scale", "0.5"}), 2,
                "--max-scale");
    check_error(run_eval({"compare", "--plot", dir / "p.png"}), 2, "compare");
    CHECK(cascade::test::files_under(dir.path).empty());
}

TEST_CASE("cascade-eval: bad input files give one line naming the file, exit code 1, and no output") {
    const TempDir dir("cascade-eval-test");
    const TempDir out("cascade-eval-out");
    write_text(dir / "broken.xml", "<cascade_model format_version=\"2\"");
    write_text(dir / "inverted.txt",
               "Image filename : \"x.png\"\nBounding box for object 1 \"PASperson\" (Xmin, Ymin) - (Xmax, Ymax) : "
               "(50, 60) - (10, 200)\n");
    write_text(dir / "not.json", "this is not JSON");
    write_text(dir / "other.json", "{\"tool\": \"cascade-detect\", \"detections\": []}");
    write_text(dir / "image.json",
               "{\"tool\": \"cascade-eval\", \"protocol\": \"image\", \"models\": [{\"label\": \"a\", "
               "\"model\": \"m\", \"positives\": 1, \"units\": 1, \"images\": 1, \"curve\": []}]}");
    write_text(dir / "window.json",
               "{\"tool\": \"cascade-eval\", \"protocol\": \"window\", \"models\": [{\"label\": \"a\", "
               "\"model\": \"m\", \"positives\": 1, \"units\": 1, \"images\": 1, \"curve\": []}]}");
    const std::string json = out / "r.json", plot = out / "r.png";

    check_error(run_eval({"window", "--model", dir / "missing.xml", "--pos", dir.path.string(), "--neg",
                          dir.path.string(), "--json", json}),
                1, "missing.xml");
    check_error(run_eval({"window", "--model", dir / "broken.xml", "--pos", dir.path.string(), "--neg",
                          dir.path.string(), "--json", json}),
                1, "broken.xml");
    check_error(run_eval({"window", "--model", kHogModel, "--pos", dir / "nothing", "--neg", dir.path.string(),
                          "--json", json}),
                1, "nothing");
    check_error(run_eval({"image", "--model", kHogModel, "--annotations", dir / "inverted.txt", "--json", json}), 1,
                "inverted.txt");
    check_error(run_eval({"compare", dir / "not.json", "--plot", plot}), 1, "not.json");
    check_error(run_eval({"compare", dir / "other.json", "--plot", plot}), 1, "other.json");
    check_error(run_eval({"compare", dir / "window.json", dir / "image.json", "--plot", plot}), 1, "image.json");
    CHECK(cascade::test::files_under(out.path).empty());

    // The two well-formed files do compare on their own.
    const ToolResult ok =
        run_eval({"compare", dir / "window.json", dir / "window.json", "--plot", plot, "--json", json});
    CHECK(ok.code == 0);
    CHECK(eval::read_json(json).models.size() == 2);
    CHECK(fs::file_size(plot) > 1000);
}

TEST_CASE("cascade-eval window on real crops and photos agrees with the CPU detectors' decisions and counts") {
    const auto data = cascade::test::shared_data_dir();
    if (!data) return;
    const TempDir dir("cascade-eval-test");
    // Under ASan (tools/sanitize) a third of the data: the HOG-LBP default scans at about 10 s per photograph there.
    const int positives = cascade::test::kSanitized ? 20 : 60;
    const int photographs = cascade::test::kSanitized ? 1 : 3;
    const std::string pos = list_of_first(*data + "/inria/96X160H96/Train/pos", positives, dir, "pos.lst");
    const std::string neg = list_of_first(*data + "/negatives", photographs, dir, "neg.lst");
    const ToolResult r = run_eval({"window", "--model", kHogModel, "--model", kLbpModel, "--pos", pos, "--neg", neg,
                                   "--json", dir / "w.json", "--plot", dir / "w.png"});
    INFO("stderr: " << r.err);
    REQUIRE(r.code == 0);
    const eval::EvalResult result = eval::read_json(dir / "w.json");
    REQUIRE(result.models.size() == 2);
    CHECK(fs::file_size(dir / "w.png") > 1000);

    // The detectors themselves, on the same data and scan: which crops' centre windows they accept (a 96x160
    // crop at scale 1 and stride 4 has the window (16, 16) among its positions) and how many negative windows
    // they accept; the HoG detector also counts the windows it scans (both models have a 64x128 window).
    ScanParams scan;
    scan.rule.stride = 4;
    scan.pyramid.scale_factor = 1.05;
    std::int64_t windows = 0;
    const HogCascade hog = std::get<HogCascade>(load_model(kHogModel).cascade);
    for (const std::string& path : data::read_lines(neg)) {
        ScanStats stats;
        detect_windows(hog, data::read_gray(path).view(), scan, &stats);
        windows += stats.windows;
    }
    for (std::size_t k = 0; k < 2; ++k) {
        const eval::ModelResult& m = result.models[k];
        CAPTURE(m.model);
        CHECK(m.positives == positives);
        CHECK(m.images == photographs);
        CHECK(m.units == static_cast<double>(windows));
        const Model model = load_model(m.model);
        const auto accepted = [&](const GrayImage& image) {
            return std::visit([&](const auto& c) { return detect_windows(c, image.view(), scan); }, model.cascade);
        };
        int accepted_crops = 0;
        for (const std::string& path : data::read_lines(pos))
            for (const Detection& d : accepted(data::read_gray(path)))
                accepted_crops += d.rect == Rect{16, 16, 64, 128} ? 1 : 0;
        std::int64_t accepted_windows = 0;
        for (const std::string& path : data::read_lines(neg))
            accepted_windows += static_cast<std::int64_t>(accepted(data::read_gray(path)).size());
        // The model's own decision is one cut of the sweep: the curve has a point at exactly the model's miss
        // rate (the threshold at its lowest accepted crop's score) with at most the model's false positives.
        // Lower thresholds may reach a lower miss rate within the same FPPW when no negative window scores
        // between them (as with one photograph), so the curve at the model's FPPW is at most its miss rate.
        const double model_fppw = static_cast<double>(accepted_windows) / static_cast<double>(windows);
        const double model_miss = 1.0 - accepted_crops / double(positives);
        REQUIRE(accepted_crops > 0);
        const auto at_model = std::find_if(m.curve.begin(), m.curve.end(), [&](const eval::CurvePoint& p) {
            return p.miss_rate == doctest::Approx(model_miss);
        });
        REQUIRE(at_model != m.curve.end());
        CHECK(at_model->false_positives <= model_fppw * (1 + 1e-12));
        CHECK(eval::miss_rate_at(m.curve, model_fppw) <= model_miss + 1e-12);
        // The curve is a DET: false positives up, miss rate down.
        for (std::size_t i = 1; i < m.curve.size(); ++i) {
            CHECK(m.curve[i].false_positives >= m.curve[i - 1].false_positives);
            CHECK(m.curve[i].miss_rate < m.curve[i - 1].miss_rate);
        }
    }
}

TEST_CASE("cascade-eval window: --pos-holdout and --neg-holdout split positives and negatives apart") {
    const auto data = cascade::test::shared_data_dir();
    if (!data) return;
    const TempDir dir("cascade-eval-test");
    const std::string pos = list_of_first(*data + "/inria/96X160H96/Train/pos", 20, dir, "pos.lst");
    const std::string neg = list_of_first(*data + "/negatives", 10, dir, "neg.lst");
    const auto measure = [&](const std::vector<std::string>& split) {
        std::vector<std::string> args = {"window", "--model", kHogModel, "--pos", pos, "--neg", neg, "--stride", "8",
                                         "--scale-factor", "1.2", "--json", dir / "w.json"};
        args.insert(args.end(), split.begin(), split.end());
        const ToolResult r = run_eval(args);
        INFO("stderr: " << r.err);
        REQUIRE(r.code == 0);
        return eval::read_json(dir / "w.json").models.at(0);
    };
    const eval::ModelResult both = measure({"--holdout", "0.2"});
    CHECK(both.images == 2);
    CHECK(both.positives < 20);
    // The positives whole (from another folder than the model's, say), the same held-out negative images.
    const eval::ModelResult negatives_only = measure({"--neg-holdout", "0.2"});
    CHECK(negatives_only.positives == 20);
    CHECK(negatives_only.images == 2);
    CHECK(negatives_only.units == both.units);
    for (const auto& [key, value] : negatives_only.settings) {
        if (key == "pos_holdout") CHECK(value == "0");
        if (key == "neg_holdout") CHECK(value == "0.2");
    }
    const eval::ModelResult apart = measure({"--pos-holdout", "0.2", "--neg-holdout", "0.2"});
    CHECK(apart.positives == both.positives);
    CHECK(apart.units == both.units);
    CHECK(apart.curve.size() == both.curve.size());

    check_error(run_eval({"window", "--model", kHogModel, "--pos", pos, "--neg", neg, "--holdout", "0.2",
                          "--neg-holdout", "0.1"}),
                2, "--neg-holdout: cannot be combined with --holdout");
    check_error(run_eval({"window", "--model", kHogModel, "--pos", pos, "--neg", neg, "--pos-holdout", "1"}), 2,
                "--pos-holdout");
    check_error(run_eval({"window", "--model", kHogModel, "--pos", pos, "--neg", neg, "--group-by", "x"}), 2,
                "--group-by");
}

TEST_CASE("cascade-eval's split by folder (--group-by folder) holds out whole people, as the trainers do") {
    const auto data = cascade::test::shared_data_dir();
    if (!data) return;
    const std::string umist = *data + "/faces/umist_cropped";
    eval::TestSplit split;
    split.positives = {umist};
    split.negatives = {*data + "/negatives"};
    split.pos_holdout = 0.2;
    split.group_by = data::GroupBy::folder;
    const eval::TestSet set = eval::find_test_set(split);
    std::set<std::string> people;
    for (const std::string& crop : set.crops) people.insert(fs::path(crop).parent_path().string());
    CHECK(people.size() == 4);  // 0.2 of 20 people
    std::size_t faces = 0;
    for (const std::string& person : people) faces += data::list_images(person).size();
    CHECK(set.crops.size() == faces);  // every face of each of them
    CHECK(set.negative_images.size() == 41);  // --neg-holdout 0: every image
}

TEST_CASE("cascade-eval composite writes INRIA annotations that read back, and image measures them") {
    const auto data = cascade::test::shared_data_dir();
    if (!data) return;
    const TempDir dir("cascade-eval-test");
    const std::string pos = list_of_first(*data + "/inria/96X160H96/Train/pos", 20, dir, "pos.lst");
    const std::string neg = list_of_first(*data + "/negatives", 4, dir, "neg.lst");
    const int count = cascade::test::kSanitized ? 3 : 6;  // under ASan: fewer images for the HOG-LBP default to scan
    const ToolResult c =
        run_eval({"composite", "--pos", pos, "--neg", neg, "--images", std::to_string(count), "--output", dir / "set"});
    INFO("stderr: " << c.err);
    REQUIRE(c.code == 0);
    const std::vector<data::AnnotatedImage> images = data::read_annotations(dir / "set/annotations.lst");
    REQUIRE(images.size() == static_cast<std::size_t>(count));
    int boxes = 0;
    for (const data::AnnotatedImage& image : images) {
        const GrayImage picture = data::read_gray(image.path);
        CHECK((!image.boxes.empty() && image.boxes.size() <= 3));
        for (const Rect& b : image.boxes) {
            CHECK(b.x >= 0);
            CHECK(b.y >= 0);
            CHECK(b.x + b.width <= picture.width);
            CHECK(b.y + b.height <= picture.height);
            CHECK(b.height == doctest::Approx(2.0 * b.width).epsilon(0.03));  // the 64x128 window, scaled
            CHECK(b.height >= 128);
        }
        boxes += static_cast<int>(image.boxes.size());
    }
    // The same seed writes the same set.
    REQUIRE(run_eval({"composite", "--pos", pos, "--neg", neg, "--images", std::to_string(count), "--output",
                      dir / "again"})
                .code == 0);
    CHECK(cascade::test::read_text(dir / "set/annotations/composite_0002.txt") ==
          cascade::test::read_text(dir / "again/annotations/composite_0002.txt"));

    const ToolResult r = run_eval({"image", "--model", kHogModel, "--annotations", dir / "set/annotations.lst",
                                   "--json", dir / "i.json", "--plot", dir / "i.png"});
    INFO("stderr: " << r.err);
    REQUIRE(r.code == 0);
    const eval::EvalResult result = eval::read_json(dir / "i.json");
    REQUIRE(result.models.size() == 1);
    CHECK(result.protocol == eval::Protocol::image);
    CHECK(result.models[0].positives == boxes);
    CHECK(result.models[0].units == count);
    CHECK(result.models[0].log_average_miss_rate >= 0.0);
    CHECK(result.models[0].log_average_miss_rate <= 1.0);
}
