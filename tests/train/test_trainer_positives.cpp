// The trainers' positive crops on real data (../shared/data; "SKIP:" without it): cascade-train lbp on UMIST's
// nested person/face/*.pgm folders, grouped by person for the hold-out and calibration splits, saying in its
// log when only the centre of larger crops is used; the HoG trainer's window at (left, top) of crops with a
// margin per side; bad --pos-margin and --group-by values exit 2 naming the option.
#include <doctest/doctest.h>

#include <filesystem>
#include <opencv2/imgcodecs.hpp>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "data/image_files.hpp"
#include "tests/support/test_data.hpp"
#include "tests/support/tool_run.hpp"
#include "train/hog/hog_data.hpp"

namespace fs = std::filesystem;
using namespace cascade;
using namespace cascade::test;

namespace {

ToolResult run_train(const std::vector<std::string>& args) { return run_tool(CASCADE_TRAIN_EXE, args); }

bool has_line(const ToolResult& r, const std::string& text) {
    return (r.out + r.err).find(text) != std::string::npos;
}

// A list of three negative images from ../shared/data/negatives.
std::string negatives(const std::string& data, const TempDir& dir) {
    return list_of_first(data + "/negatives", 3, dir, "neg.lst");
}

// Window i's integral histograms relative to its own top-left corner (the stored tables hold the image's
// running sums; differences are exact in uint32).
std::vector<std::uint32_t> local_sums(const train::hog::WindowSet& set, int i) {
    const HogSampler v = set.view(i);
    std::vector<std::uint32_t> out;
    for (int y = 0; y <= set.window().height; ++y)
        for (int x = 0; x <= set.window().width; ++x)
            for (int b = 0; b < kHogBins; ++b) out.push_back(v.at(x, y, b) - v.at(0, y, b) - v.at(x, 0, b) + v.at(0, 0, b));
    return out;
}

}  // namespace

TEST_CASE("cascade-train lbp on UMIST's nested folders, --group-by folder: whole people held out, logged") {
    const auto data = shared_data_dir();
    if (!data) return;
    const TempDir dir;
    const std::vector<std::string> common = {
        "lbp", "--pos", *data + "/faces/umist_cropped", "--neg", negatives(*data, dir), "--window", "24x24",
        "--holdout", "0.2", "--weak-learners", "2", "--features", "100", "--negatives", "200", "--checkpoint", "none"};
    std::vector<std::string> args = common;
    args.insert(args.end(), {"--group-by", "folder", "--output", dir / "centre.xml"});
    const ToolResult centre = run_train(args);
    INFO("log: " << centre.out << centre.err);
    REQUIRE(centre.code == 0);
    // 0.2 of 20 people, and the calibration split (0.25 of the other 16) by person too: 4 of 16 people's faces.
    CHECK(has_line(centre, "(4 of 20 photos, grouped by folder)"));
    CHECK(has_line(centre, "positives: 575 of 575 crops are larger than the 24x24 window: only the window-sized "
                           "centre of each is used"));
    CHECK(fs::exists(dir / "centre.xml"));

    args = common;
    args.insert(args.end(), {"--group-by", "folder", "--pos-margin", "10,6,4,2", "--output", dir / "cut.xml"});
    const ToolResult cut = run_train(args);
    REQUIRE(cut.code == 0);
    CHECK(!has_line(cut, "crops are larger"));
    // By name (the default) UMIST's files are 575 photos of their own.
    args = common;
    args.insert(args.end(), {"--output", dir / "name.xml"});
    const ToolResult by_name = run_train(args);
    REQUIRE(by_name.code == 0);
    CHECK(has_line(by_name, "(115 of 575 photos, grouped by name)"));
}

TEST_CASE("HoG trainer: --pos-margin T,R,B,L puts the window at (left, top) of each crop") {
    const auto data = shared_data_dir();
    if (!data) return;
    const TempDir dir;
    const std::string crop = data::list_images(*data + "/inria/96X160H96/Train/pos").front();
    const GrayImage gray = data::read_gray(crop);
    const cv::Mat whole(gray.height, gray.width, CV_8UC1, const_cast<std::uint8_t*>(gray.pixels.data()));
    // The same person in a crop cut 4 px in from the left and 6 px from the top, 92x150: the 64x128 window,
    // at (16, 16) of the INRIA crop, lies at (12, 10) of it, with 16 px right and 12 px below.
    REQUIRE(cv::imwrite(dir / "shifted.png", whole(cv::Rect(4, 6, 92, 150))));
    const auto inria = train::hog::load_positive_windows({{crop, std::nullopt, "a"}}, {64, 128}, {16, 16, 16, 16}, 1);
    const auto shifted =
        train::hog::load_positive_windows({{dir / "shifted.png", std::nullopt, "a"}}, {64, 128}, {10, 16, 12, 12}, 1);
    CHECK(local_sums(shifted, 0) == local_sums(inria, 0));
    // Another margin does not fit the crop: one line naming the crop, the size it needs and the margin.
    try {
        train::hog::load_positive_windows({{dir / "shifted.png", std::nullopt, "a"}}, {64, 128}, {16, 16, 16, 16}, 1);
        FAIL("a 92x150 crop was taken for a 16 px margin");
    } catch (const InputError& e) {
        CHECK(std::string(e.what()) == (dir / "shifted.png") +
                                           ": is 92x150, expected 96x160 (a 64x128 window with a margin of 16 px)");
    }
}

TEST_CASE("cascade-train: bad --pos-margin and --group-by values exit 2 naming the option") {
    const TempDir dir;
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
        {{"lbp", "--pos-margin", "1,2"}, "--pos-margin"},
        {{"lbp", "--pos-margin", "-1"}, "--pos-margin"},
        {{"lbp", "--group-by", "person"}, "--group-by"},
        {{"hog", "--pos-margin", "16,16,0,16"}, "--pos-margin"},
        {{"hog", "--pos-margin", "x"}, "--pos-margin"},
        {{"hog", "--group-by", "file"}, "--group-by"},
    };
    for (const auto& [args, option] : cases) {
        std::vector<std::string> all = args;
        all.insert(all.end(), {"--pos", dir.path.string(), "--neg", dir.path.string(), "--output", dir / "m.xml"});
        CAPTURE(all[0] + " " + all[1] + " " + all[2]);  // not args: a structured binding (C++17, clang)
        const ToolResult r = run_train(all);
        CHECK(r.code == 2);
        CHECK(r.err.find(option) != std::string::npos);
        CHECK(r.err_lines.size() == 1);
    }
    CHECK(!fs::exists(dir / "m.xml"));
}
