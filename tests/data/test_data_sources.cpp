// Tests of data/: the hold-out split, annotation sources in every format, positives cut from crops and
// boxes, and the one-line errors for bad data sources.
#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <set>

#include "common/error.hpp"
#include "data/annotations.hpp"
#include "data/dataset.hpp"
#include "data/holdout_split.hpp"
#include "data/image_files.hpp"
#include "data/negative_images.hpp"
#include "data/positive_samples.hpp"
#include "tests/support/scratch_files.hpp"

namespace fs = std::filesystem;
using namespace cascade;
using namespace cascade::data;
using cascade::test::input_error;
using cascade::test::ScratchDir;
using cascade::test::write_noise_png;

TEST_CASE("hold-out split keeps groups together and holds out the asked fraction of them") {
    std::vector<std::string> groups;
    for (int g = 0; g < 100; ++g)
        for (int k = 0; k < 1 + g % 3; ++k) groups.push_back("photo" + std::to_string(g));
    const std::vector<bool> held = held_out_by_group(groups, 0.2, 5);
    std::set<std::string> held_groups, kept_groups;
    for (std::size_t i = 0; i < groups.size(); ++i) (held[i] ? held_groups : kept_groups).insert(groups[i]);
    CHECK(held_groups.size() == 20);
    for (const std::string& g : held_groups) CHECK(kept_groups.count(g) == 0);
    CHECK(held_out_by_group(groups, 0.2, 5) == held);
}

TEST_CASE("trainer hold-out: each source is split on its own, so adding a source moves nothing across") {
    std::vector<std::string> a, b;
    for (int i = 0; i < 50; ++i) a.push_back("a/img" + std::to_string(i));
    for (int i = 0; i < 30; ++i) b.push_back("b/img" + std::to_string(i));
    const std::vector<bool> alone = trainer_holdout_by_source({a}, HoldoutOf::negatives, 0.2, 1);
    const std::vector<bool> both = trainer_holdout_by_source({a, b}, HoldoutOf::negatives, 0.2, 1);
    REQUIRE(both.size() == a.size() + b.size());
    CHECK(std::vector<bool>(both.begin(), both.begin() + 50) == alone);
    CHECK(std::count(alone.begin(), alone.end(), true) == 10);
    CHECK(std::count(both.begin() + 50, both.end(), true) == 6);
    // Positives and negatives draw from different streams: the same names need not split alike.
    CHECK(trainer_holdout_by_source({a}, HoldoutOf::positives, 0.2, 1) != alone);
}

TEST_CASE("annotation sources list every image, boxed or not, in each format, and refuse other list entries") {
    ScratchDir dir("sources");
    fs::create_directories(dir.file("ann"));
    write_noise_png(dir.file("a.png"), 80, 60, 1);
    write_noise_png(dir.file("b.png"), 80, 60, 2);
    {
        std::ofstream f(dir.file("ann/a.txt"));
        f << "Image filename : \"a.png\"\n"
          << "Bounding box for object 1 \"PASperson\" (Xmin, Ymin) - (Xmax, Ymax) : (1, 1) - (10, 20)\n"
          << "Bounding box for object 2 \"PASperson\" (Xmin, Ymin) - (Xmax, Ymax) : (31, 41) - (40, 60)\n";
    }
    {
        std::ofstream f(dir.file("ann/b.txt"));
        f << "Image filename : \"b.png\"\n";  // a photo without people still counts its false alarms
    }
    {
        std::ofstream f(dir.file("all.lst"));
        f << "ann/a.txt\n# a comment\nann/b.txt\n";
    }
    {
        std::ofstream f(dir.file("info.dat"));
        f << "a.png 2 0 0 10 20 30 40 10 20\nb.png 0\n";
    }
    {
        std::ofstream f(dir.file("set.xml"));
        f << "<dataset><images><image file='a.png'><box top='0' left='0' width='10' height='20'/>"
          << "<box top='40' left='30' width='10' height='20'/></image><image file='b.png'/></images></dataset>";
    }
    {
        std::ofstream f(dir.file("bad.lst"));
        f << "ann/a.txt\npictures/c.png\n";
    }
    const std::vector<Rect> a_boxes = {{0, 0, 10, 20}, {30, 40, 10, 20}};
    for (const std::string source : {"ann", "all.lst", "info.dat", "set.xml"}) {
        CAPTURE(source);
        const std::vector<AnnotatedImage> images = read_annotations(dir.file(source));
        REQUIRE(images.size() == 2);
        CHECK(fs::path(images[0].path).filename() == "a.png");
        CHECK(images[0].boxes == a_boxes);
        CHECK(fs::path(images[1].path).filename() == "b.png");
        CHECK(images[1].boxes.empty());
    }
    CHECK(read_annotations(dir.file("ann/a.txt")).size() == 1);
    CHECK_THROWS_WITH_AS(read_annotations(dir.file("bad.lst")), doctest::Contains("bad.lst"), InputError);
    CHECK_THROWS_WITH_AS(read_annotations(dir.file("nothing")), doctest::Contains("no such file"), InputError);
}

// The GrayImage's pixels as a cv::Mat (no copy).
cv::Mat as_mat(const GrayImage& image) {
    return cv::Mat(image.height, image.width, CV_8UC1, const_cast<std::uint8_t*>(image.pixels.data()));
}

// Marks `boxes` in dir's photo.png in each full-image format: photo.txt (INRIA, 1-based inclusive corners),
// boxes.xml (dlib imglab, plus a box marked ignore that must not become a positive) and info.dat
// (opencv_createsamples). Returns the three file names.
std::vector<std::string> write_box_annotations(const ScratchDir& dir, const std::vector<Rect>& boxes) {
    std::ofstream inria(dir.file("photo.txt")), dlib(dir.file("boxes.xml")), info(dir.file("info.dat"));
    inria << "# PASCAL Annotation Version 1.00\n\nImage filename : \"photo.png\"\n";
    dlib << "<?xml version='1.0'?>\n<dataset><images><image file='photo.png'>\n";
    info << "photo.png " << boxes.size();
    for (std::size_t i = 0; i < boxes.size(); ++i) {
        const Rect& b = boxes[i];
        inria << "Bounding box for object " << i + 1 << " \"PASperson\" (Xmin, Ymin) - (Xmax, Ymax) : (" << b.x + 1
              << ", " << b.y + 1 << ") - (" << b.x + b.width << ", " << b.y + b.height << ")\n";
        dlib << "<box top='" << b.y << "' left='" << b.x << "' width='" << b.width << "' height='" << b.height
             << "'/>\n";
        info << " " << b.x << " " << b.y << " " << b.width << " " << b.height;
    }
    dlib << "<box top='0' left='0' width='9' height='9' ignore='1'/>\n</image></images></dataset>\n";
    info << "\n";
    return {"photo.txt", "boxes.xml", "info.dat"};
}

TEST_CASE("positives from INRIA annotations, dlib XML and info files are the boxes, cut out unchanged") {
    ScratchDir dir("formats");
    const cv::Mat image = write_noise_png(dir.file("photo.png"), 200, 300, 1);
    const Rect box{50, 60, 64, 128};
    const cv::Mat expected = image(cv::Rect(box.x, box.y, box.width, box.height));
    for (const std::string& source : write_box_annotations(dir, {box})) {
        CAPTURE(source);
        const std::vector<PositiveSource> found = find_positives(dir.file(source));
        REQUIRE(found.size() == 1);
        const std::vector<PositiveSample> samples =
            load_positives(found, CropParams{{64, 128}, std::nullopt, 0.0, true, {}}, 1);
        REQUIRE(samples.size() == 2);  // and its mirror image
        const GrayImage& w = samples[0].window;
        REQUIRE(w.size() == Size{64, 128});
        CHECK(cv::norm(as_mat(w), expected, cv::NORM_INF) == 0);
        CHECK(samples[1].window.pixels[0] == w.pixels[63]);
    }
}

TEST_CASE("positives with --padding: each box grows by the padding, then widens or heightens to the window") {
    ScratchDir dir("padding");
    const cv::Mat image = write_noise_png(dir.file("photo.png"), 200, 300, 3);
    // Padding 0.3 on each side makes each box 1.6 times as wide and high, then the narrower side grows about
    // the box's centre to the window's 1:2. Both boxes come out 64x128, so the crops need no resizing.
    // A narrow box, 32x80 at (50, 60), centre (66, 100): 51.2x128, widened to 64x128 at (34, 36).
    // A wide box at the top edge, 40x20 at (120, 10), centre (140, 20): 64x32, heightened to 64x128 at
    // (108, -44): its first 44 rows repeat the image's top row.
    const std::vector<Rect> boxes = {{50, 60, 32, 80}, {120, 10, 40, 20}};
    const cv::Mat narrow = image(cv::Rect(34, 36, 64, 128));
    cv::Mat wide;
    cv::vconcat(cv::repeat(image(cv::Rect(108, 0, 64, 1)), 44, 1), image(cv::Rect(108, 0, 64, 84)), wide);
    for (const std::string& source : write_box_annotations(dir, boxes)) {
        CAPTURE(source);
        const std::vector<PositiveSample> samples =
            load_positives(find_positives(dir.file(source)), CropParams{{64, 128}, std::nullopt, 0.3, false}, 1);
        REQUIRE(samples.size() == 2);
        REQUIRE(samples[0].window.size() == Size{64, 128});
        REQUIRE(samples[1].window.size() == Size{64, 128});
        CHECK(cv::norm(as_mat(samples[0].window), narrow, cv::NORM_INF) == 0);
        CHECK(cv::norm(as_mat(samples[1].window), wide, cv::NORM_INF) == 0);
    }
}

TEST_CASE("crops: the window-sized centre, and the group is the photo (trailing letters dropped)") {
    ScratchDir dir("crops");
    const cv::Mat image = write_noise_png(dir.file("crop001001b.png"), 96, 160, 2);
    const std::vector<PositiveSource> found = find_positives(dir.path());
    REQUIRE(found.size() == 1);
    CHECK(found[0].group == "crop001001");
    const GrayImage w = load_positives(found, CropParams{{64, 128}, std::nullopt, 0.0, false, {}}, 1)[0].window;
    CHECK(cv::norm(as_mat(w), image(cv::Rect(16, 16, 64, 128)), cv::NORM_INF) == 0);
}

TEST_CASE("bad input: empty folders, unreadable images, small crops, small negatives, a hold-out that leaves nothing") {
    ScratchDir dir("bad");
    fs::create_directories(dir.file("empty"));
    fs::create_directories(dir.file("pos"));
    fs::create_directories(dir.file("neg"));
    write_noise_png(dir.file("pos/crop000001a.png"), 96, 160, 3);
    write_noise_png(dir.file("neg/a.png"), 320, 240, 4);
    DatasetSpec spec;
    spec.positives = {dir.file("pos")};
    spec.negatives = {dir.file("neg")};
    spec.crop.window = {64, 128};
    const auto one_line = [](const std::string& m) { return !m.empty() && m.find('\n') == std::string::npos; };

    SUBCASE("empty folders") {
        DatasetSpec s = spec;
        s.positives = {dir.file("empty")};
        CHECK(one_line(input_error([&] { load_dataset(s); })));
        s = spec;
        s.negatives = {dir.file("empty")};
        const std::string m = input_error([&] { load_dataset(s); });
        CHECK(m.find("empty") != std::string::npos);
        CHECK(m.find("no image files") != std::string::npos);
    }
    SUBCASE("unreadable image") {
        std::ofstream(dir.file("neg/broken.jpg")) << "not a JPEG";
        const std::string m = input_error([&] { load_dataset(spec); });
        CHECK(m.find("broken.jpg") != std::string::npos);
        CHECK(one_line(m));
    }
    SUBCASE("crop smaller than the window") {
        write_noise_png(dir.file("pos/crop000002a.png"), 48, 96, 5);
        const std::string m = input_error([&] { load_dataset(spec); });
        CHECK(m.find("crop000002a.png: crop is 48x96, smaller than the 64x128 window") != std::string::npos);
    }
    SUBCASE("window larger than every negative image") {
        const std::string m = input_error([&] {
            index_negative_images({dir.file("neg/a.png")}, {400, 400}, "--neg", 1);
        });
        CHECK(m.find("larger than every negative image") != std::string::npos);
    }
    SUBCASE("a hold-out that leaves nothing to train on") {
        DatasetSpec s = spec;
        s.holdout = 0.99;  // the only photo is held out
        CHECK(input_error([&] { load_dataset(s); }).find("--holdout") == 0);
    }
}

TEST_CASE("bad annotations: a very long line, coordinates beyond int, malformed info entries") {
    ScratchDir dir("annotations");
    write_noise_png(dir.file("photo.png"), 64, 64, 6);
    const auto inria = [&](const std::string& box_line) {
        std::ofstream(dir.file("photo.txt")) << "Image filename : \"photo.png\"\n" << box_line << "\n";
        return dir.file("photo.txt");
    };
    const auto info = [&](const std::string& line) {
        std::ofstream(dir.file("info.dat")) << line << "\n";
        return dir.file("info.dat");
    };
    const auto error_of = [](const std::string& source) {
        const std::string eval = input_error([&] { read_annotations(source); });
        CHECK(input_error([&] { find_positives(source); }) == eval);  // the trainers read them alike
        return eval;
    };

    SUBCASE("a 50,000-character INRIA line (std::regex overflowed the stack)") {
        const std::string path = inria("Bounding box for object 1 \"" + std::string(50000, 'x') +
                                       "\" (Xmin, Ymin) - (Xmax, Ymax) : (10, 20) - (30, 60)");
        const std::vector<AnnotatedImage> images = read_annotations(path);
        REQUIRE(images.size() == 1);
        REQUIRE(images[0].boxes.size() == 1);
        CHECK(images[0].boxes[0] == Rect{9, 19, 21, 41});
    }
    SUBCASE("INRIA corners beyond int or near 2^31") {
        const std::string prefix = "Bounding box for object 1 \"PASperson\" (Xmin, Ymin) - (Xmax, Ymax) : ";
        for (const std::string corners : {"(1, 1) - (99999999999, 10)", "(-2147483000, 1) - (2147483000, 10)"})
            CHECK(error_of(inria(prefix + corners)) ==
                  dir.file("photo.txt") + ": line 2: bounding box has a coordinate beyond +-1048576");
        CHECK(error_of(inria(prefix + "(1, 1) - 30, 10)")) ==
              dir.file("photo.txt") + ": line 2: bounding box is not ': (x0, y0) - (x1, y1)'");
    }
    SUBCASE("dlib XML attribute at INT_MAX") {
        std::ofstream(dir.file("boxes.xml")) << "<dataset><images><image file='photo.png'>\n"
                                                "<box top='0' left='0' width='2147483647' height='9'/>\n"
                                                "</image></images></dataset>\n";
        CHECK(error_of(dir.file("boxes.xml")) ==
              dir.file("boxes.xml") + ": line 2: <box> attribute 'width' 2147483647 is beyond +-1048576");
    }
    SUBCASE("boxes of no area, and boxes outside their image") {
        std::ofstream(dir.file("boxes.xml")) << "<dataset><images><image file='photo.png'>\n"
                                                "<box top='0' left='0' width='0' height='9'/>\n"
                                                "</image></images></dataset>\n";
        CHECK(error_of(dir.file("boxes.xml")) == dir.file("boxes.xml") + ": line 2: <box> is empty (width 0, height 9)");
        CHECK(error_of(info("photo.png 2 10 10 5 5 10 10 5 -3")) ==
              dir.file("info.dat") + ": entry 1: box 1 is empty (5x-3)");
        const AnnotatedImage outside{dir.file("photo.png"), {{10, 10, 5, 5}, {64, 0, 5, 5}}};
        CHECK(input_error([&] { check_boxes_inside(outside, {64, 64}); }) ==
              dir.file("photo.png") + ": annotated box 5x5 at (64,0) lies outside the 64x64 image");
        CHECK_NOTHROW(check_boxes_inside({dir.file("photo.png"), {{-4, 60, 5, 5}}}, {64, 64}));
    }
    SUBCASE("an entry longer than a file name may be names no file (found by fuzz_list, fuzz_info, fuzz_inria)") {
        const std::string name(300, 'a');  // ENAMETOOLONG: std::filesystem threw filesystem_error
        std::ofstream(dir.file("images.lst")) << name << "\n";
        const std::string problem = ": entry '" + name + "' names no file (looked beside the file and two folders up)";
        CHECK(input_error([&] { list_images(dir.file("images.lst")); }) == dir.file("images.lst") + problem);
        CHECK(error_of(info(name + " 1 0 0 8 8")) == dir.file("info.dat") + problem);
        CHECK(error_of(inria("Image filename : \"" + name + "\"")) == dir.file("photo.txt") + problem);
    }
    SUBCASE("malformed info entries are reported as such, not as file names") {
        CHECK(error_of(info("photo.png 2 10 10 20 20")) ==
              dir.file("info.dat") + ": entry 1: 2 boxes announced (8 numbers), 4 numbers given");
        CHECK(error_of(info("photo.png 1 10 10 99999999999 20")) ==
              dir.file("info.dat") + ": entry 1: '99999999999' is not an integer within +-1048576");
        CHECK(error_of(info("photo.png 1 10 10 x 20")) ==
              dir.file("info.dat") + ": entry 1: 'x' is not an integer within +-1048576");
    }
}
