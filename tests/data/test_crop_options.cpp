// Tests of how the trainers and cascade-eval read positive crops (data/crop_options.hpp): --pos-margin per
// side, --group-by name|folder, nested folders of crops (UMIST's person/face/*.pgm from ../shared/data; "SKIP:"
// without it), and which crops are used only by their centre.
#include <doctest/doctest.h>

#include <map>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <set>

#include "cli/usage_error.hpp"
#include "data/crop_options.hpp"
#include "data/holdout_split.hpp"
#include "data/positive_samples.hpp"
#include "tests/support/scratch_files.hpp"
#include "tests/support/test_data.hpp"

namespace fs = std::filesystem;
using namespace cascade;
using namespace cascade::data;

namespace {

std::string usage_error(const std::string& text) {
    try {
        parse_margin("--pos-margin", text);
    } catch (const cli::UsageError& e) {
        return e.what();
    }
    return "";
}

cv::Mat as_mat(const GrayImage& image) {
    return cv::Mat(image.height, image.width, CV_8UC1, const_cast<std::uint8_t*>(image.pixels.data()));
}

// UMIST's cropped faces, or nullopt with a skip message.
std::optional<std::string> umist() {
    const auto data = cascade::test::shared_data_dir();
    if (!data) return std::nullopt;
    return *data + "/faces/umist_cropped";
}

}  // namespace

TEST_CASE("--pos-margin: one number for every side or top,right,bottom,left, anything else names the option") {
    CHECK(parse_margin("--pos-margin", "16") == Margin{16, 16, 16, 16});
    CHECK(parse_margin("--pos-margin", "1,2,3,4") == Margin{1, 2, 3, 4});
    CHECK(parse_margin("--pos-margin", "0,0,0,0") == Margin{0, 0, 0, 0});
    CHECK(margin_text({16, 16, 16, 16}) == "16");
    CHECK(margin_text({1, 2, 3, 4}) == "1,2,3,4");
    for (const char* bad : {"", "1,2", "1,2,3", "1,2,3,4,5", "1,2,3,", ",1,2,3", "a", "1,x,3,4", "1.5", "-1",
                            "1,2,-3,4", "1;2;3;4"}) {
        CAPTURE(bad);
        const std::string message = usage_error(bad);
        CHECK(message.find("--pos-margin") != std::string::npos);
    }
    CHECK(parse_group_by("--group-by", "folder") == GroupBy::folder);
    CHECK(parse_group_by("--group-by", "name") == GroupBy::name);
    CHECK_THROWS_AS(parse_group_by("--group-by", "person"), cli::UsageError);
}

TEST_CASE("UMIST's nested folders: every face, grouped by person with --group-by folder, so no split leaks one") {
    const auto root = umist();
    if (!root) return;
    const std::vector<PositiveSource> by_name = find_positives(*root);
    const std::vector<PositiveSource> by_folder = find_positives(*root, GroupBy::folder);
    REQUIRE(by_folder.size() == 575);  // the data README's count, in 20 folders 1a..1t
    REQUIRE(by_name.size() == by_folder.size());
    std::set<std::string> people, names;
    for (std::size_t i = 0; i < by_folder.size(); ++i) {
        CHECK(by_folder[i].path == by_name[i].path);
        CHECK(!by_folder[i].box);
        CHECK(fs::path(by_folder[i].path).extension() == ".pgm");
        CHECK(by_folder[i].group == fs::path(by_folder[i].path).parent_path().string());
        people.insert(by_folder[i].group);
        names.insert(by_name[i].group);
    }
    CHECK(people.size() == 20);
    CHECK(names.size() == 575);  // by name, UMIST's 1a000.pgm ... are each a photo of their own

    // The trainers' split: with folders a person is held out whole (4 of 20 at 0.2); by name people are cut.
    const auto person_split = [&](const std::vector<PositiveSource>& sources) {
        std::vector<std::string> groups;
        for (const PositiveSource& s : sources) groups.push_back(s.group);
        const std::vector<bool> held = trainer_holdout_by_source({groups}, HoldoutOf::positives, 0.2, 1);
        std::map<std::string, std::set<bool>> sides;  // person folder -> the sides its faces fall on
        for (std::size_t i = 0; i < sources.size(); ++i)
            sides[fs::path(sources[i].path).parent_path().string()].insert(held[i]);
        return sides;
    };
    int held_people = 0;
    for (const auto& [person, sides] : person_split(by_folder)) {
        const auto who = person;  // CAPTURE's lambda cannot capture a structured binding (C++17, clang)
        CAPTURE(who);
        CHECK(sides.size() == 1);
        held_people += sides.count(true) ? 1 : 0;
    }
    CHECK(held_people == 4);
    int split_people = 0;
    for (const auto& [person, sides] : person_split(by_name)) split_people += sides.size() == 2 ? 1 : 0;
    CHECK(split_people > 0);
}

TEST_CASE("--pos-margin T,R,B,L cuts each side of a real crop before resizing, without it, larger crops' centre") {
    const auto root = umist();
    if (!root) return;
    const std::string face = *root + "/1a/face/1a000.pgm";
    const cv::Mat image = cv::imread(face, cv::IMREAD_GRAYSCALE);
    REQUIRE(image.size() == cv::Size(92, 112));
    const std::vector<PositiveSource> source = {{face, std::nullopt, "1a"}};

    CropParams params;
    params.window = {24, 24};
    params.margin = Margin{10, 6, 4, 2};  // the face: x 2..86, y 10..108
    cv::Mat expected;
    cv::resize(image(cv::Rect(2, 10, 92 - 2 - 6, 112 - 10 - 4)), expected, cv::Size(24, 24), 0, 0, cv::INTER_AREA);
    const PositiveSample cut = load_positives(source, params, 1).at(0);
    CHECK(cv::norm(as_mat(cut.window), expected, cv::NORM_INF) == 0);
    CHECK(!cut.centred);

    params.margin = parse_margin("--pos-margin", "5");
    cv::resize(image(cv::Rect(5, 5, 82, 102)), expected, cv::Size(24, 24), 0, 0, cv::INTER_AREA);
    CHECK(cv::norm(as_mat(load_positives(source, params, 1).at(0).window), expected, cv::NORM_INF) == 0);

    params.margin = std::nullopt;  // the 24x24 centre, unscaled: a crop larger than the window, so flagged
    const PositiveSample centre = load_positives(source, params, 1).at(0);
    CHECK(cv::norm(as_mat(centre.window), image(cv::Rect(34, 44, 24, 24)), cv::NORM_INF) == 0);
    CHECK(centre.centred);
    params.window = {92, 112};  // a crop of the window's size is the window itself
    CHECK(!load_positives(source, params, 1).at(0).centred);

    // Nothing left inside the margin: one line naming the crop and the margin.
    params.margin = Margin{60, 0, 60, 0};
    CHECK(cascade::test::input_error([&] { load_positives(source, params, 1); }) ==
          face + ": crop is 92x112: nothing left inside a margin of 60,0,60,0 pixels");
}
