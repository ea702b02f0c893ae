// The trainer's parts without real data: thresholds, backward pruning, weights, the random permutation, the
// feature pool, the split, checkpoint files, the dataset readers, and bad input (InputError with a one-line
// message; cascade-train exits non-zero).
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <limits>
#include <set>

#include "common/error.hpp"
#include "tests/train/train_test_files.hpp"
#include "train/annotations.hpp"
#include "train/backward_pruning.hpp"
#include "train/boost_weights.hpp"
#include "train/checkpoint_file.hpp"
#include "train/dataset.hpp"
#include "train/holdout_split.hpp"
#include "train/index_permutation.hpp"
#include "train/lbp/feature_pool.hpp"
#include "train/lbp/lbp_trainer.hpp"
#include "train/negative_images.hpp"
#include "train/positive_samples.hpp"
#include "train/wald_threshold.hpp"

namespace fs = std::filesystem;
using namespace cascade;
using namespace cascade::train;
using cascade::test::ScratchDir;
using cascade::test::write_noise_png;

TEST_CASE("SPRT threshold: rejects below every positive for free, a positive only where negatives dominate") {
    RejectionInput in;
    in.positives = {1.0, 2.0, 3.0, 4.0};
    in.negatives = {-3.0, -2.0, 0.0, 0.5, 1.5, 2.5, 5.0};
    in.alpha = 0.5;  // a threshold may reject a positive where negatives below it outnumber positives 2:1
    in.budget = 4;
    const Rejection r = sprt_rejection(in);
    // At 2.0: 1/4 of the positives and 5/7 of the negatives lie below: 5/7 * 0.5 >= 1/4. At 3.0: 2/4 against
    // 6/7 * 0.5: not allowed.
    CHECK(r.threshold == 2.0f);
    CHECK(r.positives == 1);
    CHECK(r.negatives == 5);
    in.budget = 0;  // no budget: only below every positive
    CHECK(sprt_rejection(in).threshold == 1.0f);
    CHECK(final_rejection(in, 1.0f).threshold == 1.0f);
    in.budget = 2;
    CHECK(final_rejection(in, 1.0f).threshold == 3.0f);  // the last stage spends the budget without a ratio test
}

TEST_CASE("float_floor keeps the double it was taken from") {
    for (double v : {0.1, -0.1, 1.0 / 3.0, -2.0 / 3.0, 1e-30, 12345.678901234})
        CHECK(static_cast<double>(float_floor(v)) <= v);
    CHECK(float_floor(0.5) == 0.5f);
    CHECK(rejection_budget(0.05, 400, 99, 100) == 20);
    CHECK(rejection_budget(0.05, 400, 49, 100) == 10);
}

TEST_CASE("backward pruning keeps exactly the positives the full classifier keeps") {
    // Four positives, three stages; alpha 0.25 drops the one with the lowest final sum (the last).
    const std::vector<std::vector<double>> sums = {
        {1.0, 2.0, 3.0}, {-1.0, 0.5, 2.5}, {0.5, -0.5, 4.0}, {2.0, 1.0, 0.0}};
    const std::vector<float> t = backward_pruning_thresholds(sums, 0.25);
    REQUIRE(t.size() == 3);
    CHECK(t[2] == 2.5f);
    CHECK(t[0] == -1.0f);  // lowest first-stage sum among the three kept; the dropped one does not count
    CHECK(t[1] == -0.5f);
}

TEST_CASE("backward pruning with acceptance thresholds: accepted positives are kept and bound no later stage") {
    // P0 reaches stage 0's acceptance threshold 2.0 (2.5 >= 2.0): decided there, so its low later sums do not
    // count. Finals with P0 as +inf: 0.0 (P3), 2.5, 3.0, +inf; alpha 0.25 drops one, P3, so the last threshold
    // is 2.5. Stage 0: lowest of P0, P1, P2 = -1.0; stage 1: lowest of P1, P2 (P0 decided) = 0.5. Without the
    // acceptance threshold P0's final -5.0 would be the one dropped (last threshold 0.0).
    const std::vector<std::vector<double>> sums = {
        {2.5, -3.0, -5.0}, {1.0, 2.0, 3.0}, {-1.0, 0.5, 2.5}, {0.5, 1.5, 0.0}};
    const float none = std::numeric_limits<float>::infinity();
    CHECK(backward_pruning_thresholds(sums, 0.25) == std::vector<float>{-1.0f, 0.5f, 0.0f});
    CHECK(backward_pruning_thresholds(sums, 0.25, {2.0f, none, none}) == std::vector<float>{-1.0f, 0.5f, 2.5f});

    // Every positive accepted at stage 0 (acceptance -2.0 is below all their first sums): stage 0's threshold
    // must still lie below its acceptance threshold, and the stages no positive reaches undecided get the
    // largest float, never +inf (a model's thresholds are finite).
    const std::vector<float> all = backward_pruning_thresholds(sums, 0.25, {-2.0f, none, none});
    CHECK(all[0] < -2.0f);
    CHECK(all[0] == std::nextafter(-2.0f, -none));
    CHECK(all[1] == std::numeric_limits<float>::max());
    CHECK(all[2] == std::numeric_limits<float>::max());
}

TEST_CASE("weights: exp(-yH) per class summing to 1/2, trimming drops the lightest, deterministically") {
    const std::vector<double> w = class_weights({0.0, 1.0, 900.0}, +1);  // 900 would overflow a plain exp(-H)
    CHECK(w[0] + w[1] + w[2] == doctest::Approx(0.5));
    CHECK(w[0] / w[1] == doctest::Approx(std::exp(1.0)));
    const std::vector<double> n = class_weights({0.0, 1.0}, -1);
    CHECK(n[1] / n[0] == doctest::Approx(std::exp(1.0)));
    CHECK(trim_weights({0.4, 0.01, 0.3, 0.29}, 0.02) == std::vector<int>{0, 2, 3});
    CHECK(trim_weights({0.25, 0.25, 0.25, 0.25}, 0.3) == std::vector<int>{0, 1, 2});  // ties by index
    CHECK(trim_weights({0.4, 0.01}, 0.0).size() == 2);
}

TEST_CASE("the miner's index permutation visits every index once") {
    for (std::uint64_t n : {1ull, 2ull, 7ull, 1000ull, 4097ull}) {
        const IndexPermutation p(n, 42);
        std::set<std::uint64_t> seen;
        for (std::uint64_t i = 0; i < n; ++i) seen.insert(p(i));
        CHECK(seen.size() == n);
        CHECK(*seen.rbegin() == n - 1);
    }
}

TEST_CASE("feature pool: distinct features inside the window, all of them when asked for more") {
    CHECK(count_lbp_features({3, 3}) == 1);
    CHECK(count_lbp_features({24, 24}) == 8464);
    const auto all = sample_lbp_features({24, 24}, 100000, 1);
    CHECK(all.size() == 8464);
    const auto pool = sample_lbp_features({64, 128}, 5000, 7);
    REQUIRE(pool.size() == 5000);
    std::set<std::tuple<int, int, int, int>> distinct;
    for (const LbpFeature& f : pool) {
        CHECK(f.x + 3 * f.width <= 64);
        CHECK(f.y + 3 * f.height <= 128);
        distinct.insert({f.x, f.y, f.width, f.height});
    }
    CHECK(distinct.size() == pool.size());
    CHECK(sample_lbp_features({64, 128}, 5000, 7).front().x == pool.front().x);  // same seed, same pool
}

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

TEST_CASE("checkpoint files: reals read back bit-identical, a wrong kind is refused") {
    ScratchDir dir("ckpt");
    StateWriter out("test-kind", 3);
    out.real("x", 0.1);
    out.integer("n", -42);
    out.text("slot", "1 2 3 4");
    out.text("slot", "-");
    out.write(dir.file("state"));
    const StateReader in(dir.file("state"), "test-kind", 3);
    CHECK(in.real("x") == 0.1);
    CHECK(in.integer("n") == -42);
    CHECK(in.all("slot") == std::vector<std::string>{"1 2 3 4", "-"});
    CHECK_THROWS_AS(in.text("missing"), InputError);
    CHECK_THROWS_AS(StateReader(dir.file("state"), "other-kind", 3), InputError);
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
        const std::vector<PositiveSample> samples = load_positives(found, CropParams{{64, 128}, -1, 0.0, true}, 1);
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
            load_positives(find_positives(dir.file(source)), CropParams{{64, 128}, -1, 0.3, false}, 1);
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
    const GrayImage w = load_positives(found, CropParams{{64, 128}, -1, 0.0, false}, 1)[0].window;
    CHECK(cv::norm(as_mat(w), image(cv::Rect(16, 16, 64, 128)), cv::NORM_INF) == 0);
}

// The message of the InputError that `f` throws, or "" when it throws none.
template <class F>
std::string input_error(F&& f) {
    try {
        f();
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

TEST_CASE("bad input: empty folders, unreadable images, small crops, small negatives, contradictory targets") {
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
    SUBCASE("contradictory or out-of-range targets") {
        LbpTrainConfig c;
        c.alpha = 0.3;
        c.target_fpr = 0.8;  // not below the detection rate 0.7 it would go with
        CHECK(input_error([&] { validate(c); }).find("--target-fpr: contradicts --alpha") == 0);
        c = LbpTrainConfig{};
        c.alpha = 1.0;
        CHECK(input_error([&] { validate(c); }).find("--alpha") == 0);
        c = LbpTrainConfig{};
        c.resume = true;
        CHECK(input_error([&] { validate(c); }).find("--resume") == 0);
        DatasetSpec s = spec;
        s.holdout = 0.99;  // the only photo is held out
        CHECK(input_error([&] { load_dataset(s); }).find("--holdout") == 0);
    }
}

// cascade-train beside this test binary (build/tests/X -> build/train/cascade-train).
std::string cascade_train() {
    return (fs::read_symlink("/proc/self/exe").parent_path().parent_path() / "train" / "cascade-train").string();
}

// Runs a command line; returns the exit status and stderr.
std::pair<int, std::string> run(const std::string& command, const ScratchDir& dir) {
    const int status = std::system((command + " >/dev/null 2>" + dir.file("stderr")).c_str());
    std::ifstream in(dir.file("stderr"));
    std::string err((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return {WEXITSTATUS(status), err};
}

TEST_CASE("cascade-train exits non-zero with one line on bad input and bad options") {
    const std::string exe = cascade_train();
    if (!fs::exists(exe)) {
        MESSAGE("SKIP: " << exe << " not built");
        return;
    }
    ScratchDir dir("cli");
    fs::create_directories(dir.file("empty"));
    fs::create_directories(dir.file("neg"));
    write_noise_png(dir.file("neg/a.png"), 320, 240, 6);
    const std::string base = exe + " lbp --neg " + dir.file("neg") + " --output " + dir.file("m.xml");
    auto [status, err] = run(base + " --pos " + dir.file("empty"), dir);
    CHECK(status == 1);
    CHECK(std::count(err.begin(), err.end(), '\n') == 1);
    CHECK(err.find("folder holds no image files") != std::string::npos);
    std::tie(status, err) = run(base + " --pos " + dir.file("empty") + " --alpha 2", dir);
    CHECK(status == 2);
    CHECK(err == "cascade-train lbp: error: --alpha: the target miss rate must lie in (0, 1)\n");
    std::tie(status, err) = run(exe + " lbq", dir);
    CHECK(status == 2);
    CHECK(!fs::exists(dir.file("m.xml")));
}
