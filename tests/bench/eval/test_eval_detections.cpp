// cascade-eval image --detections end to end: a cascade-detect run scored from its JSON gives the curve that
// --model gives for the same scan and grouping (on a composite set from ../shared/data; "SKIP:" without it),
// past the model's last threshold too with cascade-detect --min-score,
// a hand-made run is matched to the annotated images and scored as worked out by hand, and malformed runs or
// options give one line and exit codes 1 or 2, writing nothing.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <string>
#include <variant>
#include <vector>

#include "bench/eval/eval_result.hpp"
#include "common/model_io.hpp"
#include "tests/bench/eval/eval_tool_run.hpp"
#include "tests/support/test_data.hpp"
#include "tests/support/tool_run.hpp"

namespace fs = std::filesystem;
using namespace cascade;
using namespace cascade::test;

namespace {

std::string setting(const eval::ModelResult& m, const std::string& name) {
    for (const auto& [key, value] : m.settings)
        if (key == name) return value;
    FAIL("no setting " << name);
    return "";
}

// A cascade-detect JSON with the given "files" entries and detection objects.
std::string run_json(const std::vector<std::string>& files, const std::vector<std::string>& detections) {
    std::string text = "{\"model\": \"hand-made\", \"backend\": \"cpu\", \"files\": [";
    for (std::size_t i = 0; i < files.size(); ++i) text += (i ? ", \"" : "\"") + files[i] + "\"";
    text += "],\n \"detections\": [";
    for (std::size_t i = 0; i < detections.size(); ++i) text += (i ? ",\n  " : "\n  ") + detections[i];
    return text + "]}\n";
}

std::string detection(const std::string& file, int x, int y, int w, int h, const char* score) {
    return "{\"file\": \"" + file + "\", \"frame\": 0, \"x\": " + std::to_string(x) + ", \"y\": " +
           std::to_string(y) + ", \"w\": " + std::to_string(w) + ", \"h\": " + std::to_string(h) +
           ", \"score\": " + score + "}";
}

// A cascade-detect run scored by cascade-eval image --detections.
eval::ModelResult detections_curve(const std::vector<std::string>& detect_args, const TempDir& dir,
                                   const std::string& annotations) {
    std::vector<std::string> args = {"-q", "--stride", "4", "--scale-factor", "1.1", "--group", "nms"};
    args.insert(args.end(), detect_args.begin(), detect_args.end());
    args.insert(args.end(), {"--output", dir / "run.json", dir / "set/images"});
    const ToolResult detect = run_tool(CASCADE_DETECT_EXE, args);
    INFO("cascade-detect: " << detect.err);
    REQUIRE(detect.code == 0);
    const ToolResult scored =
        run_eval({"image", "--detections", dir / "run.json", "--annotations", annotations, "--json", dir / "r.json"});
    INFO("cascade-eval: " << scored.err);
    REQUIRE(scored.code == 0);
    return eval::read_json(dir / "r.json").models.at(0);
}

// --min-score below a model's last threshold extends its run's curve past the model's operating point, as
// --model's curve goes on there. `model`'s own curve (`own`) rarely goes past on the small composite set, so
// a stricter copy, its last threshold raised to the score of the curve's middle point, has hits beyond it.
void check_min_score_extends(const std::string& model, const eval::ModelResult& own, const TempDir& dir,
                             const std::string& annotations) {
    Model strict = load_model(model);
    const float raised = static_cast<float>(own.curve[own.curve.size() / 2].threshold);
    auto* lbp = std::get_if<LbpCascade>(&strict.cascade);
    if (lbp && lbp->final_svm)
        lbp->final_svm->threshold = raised;  // the final decision: the histogram SVM's
    else
        std::visit([&](auto& c) { c.stages.back().threshold = raised; }, strict.cascade);
    save_model(strict, dir / "strict.xml");
    const ToolResult scanned = run_eval({"image", "--model", dir / "strict.xml", "--group", "nms", "--annotations",
                                         annotations, "--json", dir / "s.json"});
    REQUIRE(scanned.code == 0);
    const eval::ModelResult m = eval::read_json(dir / "s.json").models.at(0);
    const eval::ModelResult at_threshold = detections_curve({"--model", dir / "strict.xml"}, dir, annotations);
    const eval::ModelResult below =
        detections_curve({"--model", dir / "strict.xml", "--min-score", "-1e30"}, dir, annotations);
    CHECK(setting(below, "min_score") == "-1.00000002e+30");
    // The run at the model's threshold stops where --model's scores drop below -span / 2 (the windows the last
    // stage rejects); with --min-score -1e30 it goes on as --model does, point for point.
    CHECK(at_threshold.curve.size() < m.curve.size());
    REQUIRE(below.curve.size() == m.curve.size());
    for (std::size_t i = 0; i < m.curve.size(); ++i) {
        CAPTURE(i);
        CHECK(below.curve[i].false_positives == m.curve[i].false_positives);
        CHECK(below.curve[i].miss_rate == m.curve[i].miss_rate);
    }
    CHECK(below.log_average_miss_rate == m.log_average_miss_rate);
    CHECK(below.log_average_miss_rate <= at_threshold.log_average_miss_rate);  // equal when past 1 FPPI
}

}  // namespace

TEST_CASE("cascade-eval image --detections of a cascade-detect run equals --model over the same scan") {
    const auto data = cascade::test::shared_data_dir();
    if (!data) return;
    const TempDir dir("cascade-eval-test");
    const std::string pos = cascade::test::list_of_first(*data + "/inria/96X160H96/Train/pos", 40, dir, "pos.lst");
    const std::string neg = cascade::test::list_of_first(*data + "/negatives", 6, dir, "neg.lst");
    REQUIRE(run_eval({"composite", "--pos", pos, "--neg", neg, "--images", "16", "--output", dir / "set"}).code == 0);
    const std::string annotations = dir / "set/annotations.lst";

    // cascade-eval image's own scan (--stride 4 --scale-factor 1.1) given to cascade-detect, and --group nms on
    // both sides: --model keeps every window that reaches the last stage, so with opencv or meanshift grouping
    // the windows that stage rejects would join the groups (and move their boxes and counts); greedy NMS takes
    // the accepted windows first, so they come out the same as the detector's.
    for (const std::string& model : {kHogModel, kLbpModel}) {
        CAPTURE(model);
        const ToolResult detect =
            run_tool(CASCADE_DETECT_EXE, {"-q", "--model", model, "--stride", "4", "--scale-factor", "1.1", "--group",
                                          "nms", "--nms-iou", "0.3", "--output", dir / "run.json", dir / "set/images"});
        INFO("cascade-detect: " << detect.err);
        REQUIRE(detect.code == 0);
        const ToolResult scored = run_eval({"image", "--detections", dir / "run.json", "--annotations", annotations,
                                            "--json", dir / "d.json", "--plot", dir / "d.png"});
        INFO("cascade-eval --detections: " << scored.err);
        REQUIRE(scored.code == 0);
        CHECK(scored.err.find("16 annotated images among its 16 files (0 matched by file name only, 0 not") !=
              std::string::npos);
        CHECK(fs::file_size(dir / "d.png") > 1000);
        const ToolResult scanned = run_eval(
            {"image", "--model", model, "--group", "nms", "--annotations", annotations, "--json", dir / "m.json"});
        INFO("cascade-eval --model: " << scanned.err);
        REQUIRE(scanned.code == 0);

        const eval::ModelResult d = eval::read_json(dir / "d.json").models.at(0);
        const eval::ModelResult m = eval::read_json(dir / "m.json").models.at(0);
        CHECK(setting(d, "group") == "nms");
        CHECK(setting(d, "stride") == setting(m, "stride"));
        CHECK(setting(d, "scale_factor") == setting(m, "scale_factor"));
        CHECK(d.positives == m.positives);
        CHECK(d.units == 16.0);
        // --model's score is the final sum for the windows the cascade accepts, as cascade-detect's, and less
        // than -span / 2 for those its last stage rejects (protocols.hpp). So the points of --model's curve
        // above -span / 2 are the detector's own: the same thresholds, false positives per image and miss
        // rates. Below them --model may go on (the last stage's threshold lowered); where it does not, the
        // log-average miss rates are equal too.
        const double span = std::stod(setting(m, "depth_span"));
        std::vector<eval::CurvePoint> accepted;
        for (const eval::CurvePoint& p : m.curve)
            if (p.threshold > -span / 2) accepted.push_back(p);
        REQUIRE(d.curve.size() == accepted.size());
        CHECK(d.curve.size() >= 10);
        for (std::size_t i = 0; i < d.curve.size(); ++i) {
            CAPTURE(i);
            CHECK(d.curve[i].threshold == accepted[i].threshold);
            CHECK(d.curve[i].false_positives == accepted[i].false_positives);
            CHECK(d.curve[i].miss_rate == accepted[i].miss_rate);
        }
        CHECK(d.log_average_miss_rate == doctest::Approx(eval::log_average_miss_rate(accepted)));
        if (accepted.size() == m.curve.size()) CHECK(d.log_average_miss_rate == m.log_average_miss_rate);

        check_min_score_extends(model, m, dir, annotations);

        // The two result files draw on one plot.
        CHECK(run_eval({"compare", dir / "d.json", dir / "m.json", "--plot", dir / "both.png"}).code == 0);
    }
}

TEST_CASE("cascade-eval image --detections matches images by path, then by unique name, and scores by hand") {
    const TempDir dir("cascade-eval-test");
    fs::create_directories(dir.path / "a");
    fs::create_directories(dir.path / "b");
    for (const char* image : {"a/x.png", "a/y.png", "b/z.png", "b/w.png"}) write_text(dir / image, "");  // not read
    write_text(dir / "truth.txt",
               "a/x.png 2 0 0 10 10 100 0 10 10\na/y.png 1 0 0 20 20\nb/z.png 0\nb/w.png 1 30 30 10 10\n");
    // x.png by its path; y.png by its name (the run saw it in another folder); z.png by a path that leads to
    // it through ".."; w.png is among the files read, without detections: its person is missed. other.png is
    // annotated nowhere: left out, however high its score.
    const std::string x = dir / "a/x.png", y = "/elsewhere/y.png", z = dir / "a/../b/z.png", w = dir / "b/w.png";
    write_text(dir / "run.json",
               run_json({x, y, z, w, "/elsewhere/other.png"},
                        {detection(x, 0, 0, 10, 10, "0.9"), detection(x, 100, 0, 10, 10, "0.3"),
                         detection(x, 50, 50, 10, 10, "0.8"), detection(y, 1, 1, 20, 20, "0.7"),
                         detection(y, 0, 0, 20, 20, "0.6"), detection(z, 5, 5, 10, 10, "0.5"),
                         detection("/elsewhere/other.png", 0, 0, 10, 10, "5")}));
    const ToolResult r = run_eval({"image", "--detections", dir / "run.json", "--label", "hand", "--annotations",
                                   dir / "truth.txt", "--json", dir / "r.json"});
    INFO("stderr: " << r.err);
    REQUIRE(r.code == 0);
    CHECK(r.err.find("4 annotated images among its 5 files (1 matched by file name only, 1 not annotated") !=
          std::string::npos);
    const eval::ModelResult m = eval::read_json(dir / "r.json").models.at(0);
    CHECK(m.label == "hand");
    CHECK(m.model == "hand-made");
    CHECK(setting(m, "detections") == dir / "run.json");
    CHECK(setting(m, "backend") == "cpu");
    CHECK(m.positives == 4);
    CHECK(m.units == 4.0);
    // Hits 0.9, 0.3 (x.png's two boxes) and 0.7 (y.png; its second detection, 0.6, finds the box taken: a
    // false alarm), w.png's box never; false alarms 0.8, 0.6, 0.5 over 4 images:
    //   t = 0.9: miss 3/4 at 0 FPPI;  t = 0.7: miss 2/4 at 1/4 (0.8);  t = 0.3: miss 1/4 at 3/4 (all three).
    REQUIRE(m.curve.size() == 3);
    const double expected[3][3] = {{0.9, 0.0, 0.75}, {0.7, 0.25, 0.5}, {0.3, 0.75, 0.25}};
    for (int i = 0; i < 3; ++i) {
        CAPTURE(i);
        CHECK(m.curve[i].threshold == doctest::Approx(expected[i][0]));
        CHECK(m.curve[i].false_positives == doctest::Approx(expected[i][1]));
        CHECK(m.curve[i].miss_rate == doctest::Approx(expected[i][2]));
    }
    // Log-average over 10^-2 .. 10^0 in quarter decades: 3/4 up to 10^-0.75 (below 1/4 FPPI, six points),
    // 1/2 at 10^-0.5 and 10^-0.25, 1/4 at 1.
    const double log_average = std::exp((6 * std::log(0.75) + 2 * std::log(0.5) + std::log(0.25)) / 9);
    CHECK(m.log_average_miss_rate == doctest::Approx(log_average));

    // An annotated image the run did not read is an error naming it, not an image without detections.
    write_text(dir / "partial.json", run_json({x, z, w}, {detection(x, 0, 0, 10, 10, "1")}));
    check_error(run_eval({"image", "--detections", dir / "partial.json", "--annotations", dir / "truth.txt"}), 1,
                "partial.json: the run did not read 1 of the 4 annotated images, e.g. '" + (dir / "a/y.png") + "'");
    // Two files of the run named y.png, neither at its path: which is meant is unknown.
    write_text(dir / "twice.json", run_json({x, z, w, "/p/y.png", "/q/y.png"}, {}));
    check_error(run_eval({"image", "--detections", dir / "twice.json", "--annotations", dir / "truth.txt"}), 1,
                "2 of its files and 1 annotated images are named 'y.png'");
    // One image read twice, under two spellings of its path.
    write_text(dir / "again.json", run_json({x, dir / "a/y.png", z, w, dir / "a/./x.png"}, {}));
    check_error(run_eval({"image", "--detections", dir / "again.json", "--annotations", dir / "truth.txt"}), 1,
                "again.json: the run read one image twice");
}

TEST_CASE("cascade-eval image --detections: malformed runs and conflicting options give one line, nothing written") {
    const TempDir dir("cascade-eval-test");
    const TempDir out("cascade-eval-out");
    write_text(dir / "x.png", "");
    write_text(dir / "truth.txt", "x.png 1 0 0 10 10\n");
    const std::string x = dir / "x.png", json = out / "r.json";
    const std::string good = detection(x, 0, 0, 10, 10, "1");
    const std::vector<std::pair<std::string, std::string>> files = {
        {"truncated.json", "{\"files\": [\"" + x + "\"], \"detections\": ["},
        {"run.csv", "file,frame,x,y,w,h,score\n" + x + ",0,0,0,10,10,1\n"},
        {"array.json", "[]"},
        {"old.json", "{\"model\": \"m.xml\", \"detections\": [" + good + "]}"},
        {"number_file.json", "{\"files\": [3], \"detections\": []}"},
        {"no_w.json", run_json({x}, {"{\"file\": \"" + x + "\", \"frame\": 0, \"x\": 0, \"y\": 0, \"h\": 9, "
                                     "\"score\": 1}"})},
        {"zero_h.json", run_json({x}, {detection(x, 0, 0, 10, 0, "1")})},
        {"text_score.json", run_json({x}, {detection(x, 0, 0, 10, 10, "\"high\"")})},
        {"huge_score.json", run_json({x}, {detection(x, 0, 0, 10, 10, "1e300")})},
        {"unlisted.json", run_json({x}, {detection(dir / "y.png", 0, 0, 10, 10, "1")})},
        {"parameters.json", "{\"parameters\": {\"stride\": [4]}, \"files\": [], \"detections\": []}"},
    };
    const std::vector<std::pair<std::string, std::string>> problems = {
        {"truncated.json", "is not valid JSON: line 1: unexpected end"},
        {"run.csv", "is not valid JSON: line 1: expected a value (CSV does not list the images read"},
        {"array.json", "is not a JSON object"},
        {"old.json", "has no \"files\" array"},
        {"number_file.json", "files[0] is not a file name"},
        {"no_w.json", "detections[0].w is missing or not a positive integer"},
        {"zero_h.json", "detections[0].h is missing or not a positive integer"},
        {"text_score.json", "detections[0].score is missing or not a finite number"},
        {"huge_score.json", "detections[0].score is missing or not a finite number"},
        {"unlisted.json", "detections[0].file '" + (dir / "y.png") + "' is not among \"files\""},
        {"parameters.json", "parameters.stride is not a string, a number, null"},
        {"missing.json", "no such file"},
    };
    for (const auto& [name, text] : files) write_text(dir / name, text);
    for (const auto& [name, problem] : problems) {
        const std::string file = name;  // CAPTURE's lambda cannot capture a structured binding (C++17, clang)
        CAPTURE(file);
        check_error(run_eval({"image", "--detections", dir / name, "--annotations", dir / "truth.txt", "--json", json}),
                    1, dir / name + ": " + problem);
    }

    // Options: --detections is not combined with --model, nor with the options that say how to scan and
    // group (cascade-detect did that); labels count as for --model.
    write_text(dir / "run.json", run_json({x}, {good}));
    const std::vector<std::string> base = {"image", "--detections", dir / "run.json", "--annotations",
                                           dir / "truth.txt", "--json", json};
    const auto with = [&](const std::vector<std::string>& more) {
        std::vector<std::string> args = base;
        args.insert(args.end(), more.begin(), more.end());
        return run_eval(args);
    };
    check_error(with({"--model", kHogModel}), 2, "--detections: cannot be combined with --model");
    check_error(with({"--group", "opencv"}), 2, "--group: applies to --model only");
    check_error(with({"--stride", "4"}), 2, "--stride: applies to --model only");
    check_error(with({"--label", "a", "--label", "b"}), 2, "--label: give one per --detections (1)");
    check_error(run_eval({"image", "--annotations", dir / "truth.txt"}), 2, "--model");
    CHECK(run_eval({"image", "--help"}).out.find("(--model FILE | --detections RUN.json)") != std::string::npos);
    CHECK(files_under(out.path).empty());

    // The well-formed run scores: one box, found.
    const ToolResult ok = with({});
    INFO("stderr: " << ok.err);
    REQUIRE(ok.code == 0);
    CHECK(eval::read_json(json).models.at(0).miss_rate_at.back().second == 0.0);
}
