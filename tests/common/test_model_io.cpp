// Model loading and saving (common/model_io.hpp): OpenCV's LBP cascades against OpenCV's own parse of the
// same files, bit-exact round trips through the project's format, validation, and bad input of every kind.
#include <doctest/doctest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <opencv2/core.hpp>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "common/model.hpp"
#include "common/model_io.hpp"
#include "tests/support/test_data.hpp"

namespace fs = std::filesystem;

namespace {

using cascade::HogCascade;
using cascade::InputError;
using cascade::LbpCascade;
using cascade::Model;

// A fresh directory under the system temporary directory, removed with everything in it.
class TempDir {
public:
    TempDir() {
        static int counter = 0;
        path_ = fs::temp_directory_path() /
                ("cascade_test_model_io_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
        fs::remove_all(path_);
        fs::create_directories(path_);
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path_, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    std::string file(const std::string& name) const { return (path_ / name).string(); }
    const fs::path& path() const { return path_; }

private:
    fs::path path_;
};

void write_text(const std::string& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    REQUIRE_MESSAGE(out.good(), "cannot write " << path);
    out << text;
}

std::string read_text(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    REQUIRE_MESSAGE(in.good(), "cannot read " << path);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::vector<std::string> directory_listing(const fs::path& dir) {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
    return names;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// The message of the InputError that `f` throws, or a marker saying what happened instead.
std::string input_error_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const InputError& e) {
        return e.what();
    } catch (const std::exception& e) {
        return std::string("<not an InputError: ") + e.what() + ">";
    }
    return "<no exception>";
}

// Checks that `f` throws an InputError on one line naming `subject` and saying `problem`.
void check_input_error(const std::function<void()>& f, const std::string& subject, const std::string& problem) {
    const std::string message = input_error_of(f);
    INFO("message: " << message);
    CHECK(message.rfind(subject + ": ", 0) == 0);
    CHECK(contains(message, problem));
    CHECK(message.find('\n') == std::string::npos);
}

std::uint32_t bits(float v) {
    std::uint32_t b;
    std::memcpy(&b, &v, sizeof b);
    return b;
}

void check_same(const std::vector<cascade::Stage>& a, const std::vector<cascade::Stage>& b) {
    REQUIRE(a.size() == b.size());
    for (std::size_t s = 0; s < a.size(); ++s) {
        INFO("stage " << s);
        CHECK(a[s].first == b[s].first);
        CHECK(a[s].count == b[s].count);
        CHECK(bits(a[s].threshold) == bits(b[s].threshold));
        CHECK(bits(a[s].accept) == bits(b[s].accept));
    }
}

void check_same(const LbpCascade& a, const LbpCascade& b) {
    CHECK(a.window == b.window);
    CHECK(a.policy == b.policy);
    check_same(a.stages, b.stages);
    REQUIRE(a.weaks.size() == b.weaks.size());
    for (std::size_t i = 0; i < a.weaks.size(); ++i) {
        INFO("weak learner " << i);
        CHECK(a.weaks[i].feature.x == b.weaks[i].feature.x);
        CHECK(a.weaks[i].feature.y == b.weaks[i].feature.y);
        CHECK(a.weaks[i].feature.width == b.weaks[i].feature.width);
        CHECK(a.weaks[i].feature.height == b.weaks[i].feature.height);
        CHECK(a.weaks[i].table == b.weaks[i].table);
    }
    REQUIRE(a.responses.size() == b.responses.size());
    CHECK(std::memcmp(a.responses.data(), b.responses.data(), a.responses.size() * sizeof(float)) == 0);
}

void check_same(const HogCascade& a, const HogCascade& b) {
    CHECK(a.window == b.window);
    CHECK(a.policy == b.policy);
    check_same(a.stages, b.stages);
    REQUIRE(a.weaks.size() == b.weaks.size());
    for (std::size_t i = 0; i < a.weaks.size(); ++i) {
        INFO("weak learner " << i);
        CHECK(a.weaks[i].block == b.weaks[i].block);
        CHECK(std::memcmp(a.weaks[i].weights, b.weaks[i].weights, sizeof a.weaks[i].weights) == 0);
        CHECK(bits(a.weaks[i].bias) == bits(b.weaks[i].bias));
        CHECK(a.weaks[i].num_cuts == b.weaks[i].num_cuts);
        CHECK(std::memcmp(a.weaks[i].cuts, b.weaks[i].cuts, sizeof a.weaks[i].cuts) == 0);
        CHECK(std::memcmp(a.weaks[i].responses, b.weaks[i].responses, sizeof a.weaks[i].responses) == 0);
        CHECK(a.weaks[i].descriptor == b.weaks[i].descriptor);
        CHECK(bits(a.weaks[i].slope) == bits(b.weaks[i].slope));
    }
}

// A float drawn from all finite bit patterns: every exponent, subnormals and -0 included.
float random_finite_float(std::mt19937& rng) {
    while (true) {
        const std::uint32_t b = static_cast<std::uint32_t>(rng());
        float v;
        std::memcpy(&v, &b, sizeof v);
        if (std::isfinite(v)) return v;
    }
}

const float kAwkwardFloats[] = {0.f, -0.f, std::numeric_limits<float>::denorm_min(), -FLT_MIN, FLT_MAX, -FLT_MAX,
                                FLT_EPSILON, 1.f / 3.f, 0.1f, 16777217.f, -1e-5f, 3.4028e38f};

// Every third weak learner a discrete vote (the XML's vote="..." form, -0 included), the others real-valued
// responses: 0 to 7 ascending cuts, some with a linear term.
void random_response(cascade::HogWeak& w, int i, std::mt19937& rng) {
    std::uniform_real_distribution<float> unit(-1.f, 1.f);
    if (i % 3 == 0) return cascade::set_vote(w, i % 9 == 0 ? -0.f : unit(rng));
    w.num_cuts = std::uniform_int_distribution<int>(0, cascade::kHogMaxBins - 1)(rng);
    for (int j = 0; j < w.num_cuts; ++j) w.cuts[j] = (j == 0 ? -1.f : w.cuts[j - 1]) + 0.5f + unit(rng) * 0.25f;
    for (int k = 0; k <= w.num_cuts; ++k) w.responses[k] = k % 2 ? random_finite_float(rng) : unit(rng);
    w.slope = i % 3 == 2 ? unit(rng) : 0.f;
}

HogCascade random_hog_cascade(std::mt19937& rng) {
    HogCascade c;
    c.window = {64, 128};
    c.policy = cascade::SumPolicy::per_stage;
    std::uniform_int_distribution<int> stage_size(1, 6);
    const int sides[] = {8, 12, 16, 24, 32, 48, 64};
    std::uniform_int_distribution<int> side(0, 6);
    std::uniform_real_distribution<float> unit(-1.f, 1.f);
    int next = 0;
    for (int s = 0; s < 5; ++s) {
        cascade::Stage stage;
        stage.first = next;
        stage.count = stage_size(rng);
        stage.threshold = unit(rng) * 3.f;
        next += stage.count;
        c.stages.push_back(stage);
    }
    std::size_t awkward = 0;
    for (int i = 0; i < next; ++i) {
        cascade::HogWeak w;
        w.block.width = sides[side(rng)];
        w.block.height = sides[side(rng)];
        if (i % 4 == 0) {  // a Dalal-Triggs block (16x16 only), every other one of the gamma variant
            w.block.width = w.block.height = 16;
            w.descriptor = i % 8 == 0 ? cascade::kHogDescriptorDalalTriggs : cascade::kHogDescriptorDalalTriggsGamma;
        }
        w.block.x = std::uniform_int_distribution<int>(0, c.window.width - w.block.width)(rng);
        w.block.y = std::uniform_int_distribution<int>(0, c.window.height - w.block.height)(rng);
        for (float& x : w.weights) x = (i % 2 == 0) ? unit(rng) : random_finite_float(rng);
        w.weights[i % cascade::kHogBlockDims] = kAwkwardFloats[awkward++ % std::size(kAwkwardFloats)];
        w.bias = random_finite_float(rng);
        random_response(w, i, rng);
        c.weaks.push_back(w);
    }
    return c;
}

LbpCascade random_lbp_cascade(std::mt19937& rng) {
    LbpCascade c;
    c.window = {20, 34};
    c.policy = cascade::SumPolicy::running;  // WaldBoost style: one weak learner per stage
    const int weaks = 40, tables = 7;
    for (int i = 0; i < weaks; ++i) {
        c.stages.push_back({i, 1, random_finite_float(rng)});
        if (i % 3 == 1) {  // an acceptance threshold on some stages, awkward floats included
            const float above = random_finite_float(rng);
            c.stages.back().accept = above > c.stages.back().threshold ? above : std::nextafter(c.stages.back().threshold, INFINITY);
        }
        cascade::LbpWeak w;
        w.feature.width = static_cast<std::int16_t>(std::uniform_int_distribution<int>(1, 6)(rng));
        w.feature.height = static_cast<std::int16_t>(std::uniform_int_distribution<int>(1, 11)(rng));
        w.feature.x = static_cast<std::int16_t>(
            std::uniform_int_distribution<int>(0, c.window.width - 3 * w.feature.width)(rng));
        w.feature.y = static_cast<std::int16_t>(
            std::uniform_int_distribution<int>(0, c.window.height - 3 * w.feature.height)(rng));
        w.table = i % tables;  // tables shared between weak learners
        c.weaks.push_back(w);
    }
    for (int i = 0; i < tables * cascade::kLbpCodes; ++i) c.responses.push_back(random_finite_float(rng));
    for (std::size_t i = 0; i < std::size(kAwkwardFloats); ++i) c.responses[i * 3] = kAwkwardFloats[i];
    return c;
}

// A small valid model in the project's format; the arguments replace its parts to make it invalid.
std::string tiny_lbp_xml(const std::string& version = "1",
                         const std::string& stages = R"(<stage first="0" count="2" threshold="0.5"/>)",
                         const std::string& weaks = R"(<lbp x="0" y="0" w="1" h="1" table="0"/>
                                                       <lbp x="3" y="6" w="7" h="6" table="0"/>)") {
    std::string responses;
    for (int i = 0; i < cascade::kLbpCodes; ++i) responses += (i % 2 ? " 0.25" : " -0.5");
    return "<?xml version=\"1.0\"?>\n<cascade_model format_version=\"" + version +
           "\" kind=\"lbp\" sum_policy=\"per_stage\">\n"
           "  <window width=\"24\" height=\"24\"/>\n"
           "  <stages>" + stages + "</stages>\n"
           "  <weak_learners>" + weaks + "</weak_learners>\n"
           "  <responses count=\"256\">" + responses + "</responses>\n"
           "  <metadata><trainer>hand</trainer><seed>7</seed></metadata>\n"
           "</cascade_model>\n";
}

// A one-learner HoG model; `response` holds the learner's response attributes.
std::string tiny_hog_xml(const std::string& version, const std::string& response) {
    std::string weights;
    for (int i = 0; i < cascade::kHogBlockDims; ++i) weights += i % 2 ? " 0.25" : " -0.5";
    return "<?xml version=\"1.0\"?>\n<cascade_model format_version=\"" + version +
           "\" kind=\"hog\" sum_policy=\"per_stage\">\n"
           "  <window width=\"64\" height=\"128\"/>\n"
           "  <stages><stage first=\"0\" count=\"1\" threshold=\"0.5\"/></stages>\n"
           "  <weak_learners><hog x=\"8\" y=\"16\" w=\"16\" h=\"32\" bias=\"0.125\" " + response + ">" + weights +
           "</hog></weak_learners>\n"
           "</cascade_model>\n";
}

std::string replace_once(std::string text, const std::string& from, const std::string& to) {
    const std::size_t at = text.find(from);
    REQUIRE_MESSAGE(at != std::string::npos, "'" << from << "' not found");
    return text.replace(at, from.size(), to);
}

std::vector<int> ints_of(const cv::FileNode& node) {
    std::vector<int> out;
    for (auto it = node.begin(); it != node.end(); ++it) out.push_back(static_cast<int>(*it));
    return out;
}

std::vector<float> floats_of(const cv::FileNode& node) {
    std::vector<float> out;
    for (auto it = node.begin(); it != node.end(); ++it) out.push_back(static_cast<float>(*it));
    return out;
}

}  // namespace

TEST_CASE("every OpenCV LBP cascade loads with the window size and stage count of its XML") {
    const auto cascades = cascade::test::opencv_lbp_cascades();
    for (const std::string& path : cascades) {
        INFO(path);
        cv::FileStorage storage(path, cv::FileStorage::READ);
        REQUIRE(storage.isOpened());
        const cv::FileNode root = storage.getFirstTopLevelNode();
        const int width = static_cast<int>(root["width"]);
        const int height = static_cast<int>(root["height"]);
        const int stage_num = static_cast<int>(root["stageNum"]);
        int trees = 0;
        for (const auto& stage : root["stages"]) trees += static_cast<int>(stage["weakClassifiers"].size());

        const Model model = cascade::load_model(path);
        CHECK(model.source == path);
        REQUIRE(std::holds_alternative<LbpCascade>(model.cascade));
        const auto& c = std::get<LbpCascade>(model.cascade);
        CHECK(c.window.width == width);
        CHECK(c.window.height == height);
        CHECK(static_cast<int>(c.stages.size()) == stage_num);
        CHECK(static_cast<int>(c.weaks.size()) == trees);
        CHECK(c.responses.size() == c.weaks.size() * cascade::kLbpCodes);
        CHECK(c.policy == cascade::SumPolicy::per_stage);
        // Two window sizes checked by hand against the files.
        if (fs::path(path).filename() == "lbpcascade_frontalface.xml") CHECK(c.window == cascade::Size{24, 24});
        if (fs::path(path).filename() == "lbpcascade_frontalface_improved.xml")
            CHECK(c.window == cascade::Size{45, 45});
    }
}

TEST_CASE("OpenCV stumps become tables exactly as predictCategoricalStump reads them") {
    // The reference is OpenCV's own FileStorage parse of the same file: leaves and thresholds as the floats
    // that cv::CascadeClassifier stores, features as its rects.
    const auto cascades = cascade::test::opencv_lbp_cascades();
    int stumps = 0;
    for (const std::string& path : cascades) {
        INFO(path);
        const Model model = cascade::load_model(path);
        const auto& c = std::get<LbpCascade>(model.cascade);
        cv::FileStorage storage(path, cv::FileStorage::READ);
        const cv::FileNode root = storage.getFirstTopLevelNode();
        const cv::FileNode features = root["features"];
        std::size_t s = 0, weak = 0;
        for (const auto& stage : root["stages"]) {
            INFO("stage " << s);
            REQUIRE(s < c.stages.size());
            const float opencv_threshold = static_cast<float>(stage["stageThreshold"]) - 1e-5f;
            CHECK(bits(c.stages[s].threshold) == bits(opencv_threshold));
            CHECK(c.stages[s].first == static_cast<int>(weak));
            CHECK(c.stages[s].count == static_cast<int>(stage["weakClassifiers"].size()));
            for (const auto& tree : stage["weakClassifiers"]) {
                INFO("weak classifier " << weak);
                const std::vector<int> nodes = ints_of(tree["internalNodes"]);
                const std::vector<float> leaves = floats_of(tree["leafValues"]);
                REQUIRE(nodes.size() == 11);
                REQUIRE(leaves.size() == 2);
                const std::vector<int> rect = ints_of(features[nodes[2]]["rect"]);
                REQUIRE(rect.size() == 4);
                const cascade::LbpWeak& w = c.weaks[weak];
                CHECK(w.feature.x == rect[0]);
                CHECK(w.feature.y == rect[1]);
                CHECK(w.feature.width == rect[2]);
                CHECK(w.feature.height == rect[3]);
                REQUIRE(w.table >= 0);
                const float* table = &c.responses[static_cast<std::size_t>(w.table) * cascade::kLbpCodes];
                int mismatches = 0, in_subset = 0;
                for (int code = 0; code < cascade::kLbpCodes; ++code) {
                    const bool bit = (nodes[static_cast<std::size_t>(3 + (code >> 5))] & (1 << (code & 31))) != 0;
                    in_subset += bit;
                    mismatches += bits(table[code]) != bits(bit ? leaves[0] : leaves[1]);
                }
                CHECK(mismatches == 0);
                // Real stumps split the codes: both leaves are used (guards against an all-one-leaf bug).
                CHECK(in_subset > 0);
                CHECK(in_subset < cascade::kLbpCodes);
                ++weak;
                ++stumps;
            }
            ++s;
        }
        CHECK(s == c.stages.size());
        CHECK(weak == c.weaks.size());
    }
    if (!cascades.empty()) CHECK(stumps > 500);
}

TEST_CASE("OpenCV cascades round-trip bit-identically through the project's format") {
    TempDir dir;
    for (const std::string& path : cascade::test::opencv_lbp_cascades()) {
        INFO(path);
        const Model original = cascade::load_model(path);
        const std::string saved = dir.file(fs::path(path).filename().string());
        cascade::save_model(original, saved);
        const std::string text = read_text(saved);
        CHECK(contains(text, "<cascade_model format_version=\"" + std::to_string(cascade::kModelFormatVersion) +
                                 "\" kind=\"lbp\" sum_policy=\"per_stage\">"));
        CHECK(!contains(text, "accept="));  // written only where a stage has one

        const Model reloaded = cascade::load_model(saved);
        CHECK(reloaded.source == saved);
        check_same(std::get<LbpCascade>(original.cascade), std::get<LbpCascade>(reloaded.cascade));

        const Model embedded = cascade::load_model_from_string(text, "embedded:face");
        CHECK(embedded.source == "embedded:face");
        check_same(std::get<LbpCascade>(original.cascade), std::get<LbpCascade>(embedded.cascade));

        // Saving what was loaded writes the same text again.
        const std::string again = dir.file("again.xml");
        cascade::save_model(reloaded, again);
        CHECK(read_text(again) == text);
    }
    CHECK(directory_listing(dir.path()).size() <= 6);  // no temporaries left behind
}

TEST_CASE("random models round-trip bit-identically, awkward floats included") {
    TempDir dir;
    std::mt19937 rng(20240611);
    for (int round = 0; round < 4; ++round) {
        INFO("round " << round);
        Model hog;
        hog.cascade = random_hog_cascade(rng);
        if (round % 2) std::get<HogCascade>(hog.cascade).policy = cascade::SumPolicy::running;
        cascade::save_model(hog, dir.file("hog.xml"));
        const Model hog_back = cascade::load_model(dir.file("hog.xml"));
        REQUIRE(std::holds_alternative<HogCascade>(hog_back.cascade));
        check_same(std::get<HogCascade>(hog.cascade), std::get<HogCascade>(hog_back.cascade));

        Model lbp;
        lbp.cascade = random_lbp_cascade(rng);
        cascade::save_model(lbp, dir.file("lbp.xml"));
        const Model lbp_back = cascade::load_model(dir.file("lbp.xml"));
        REQUIRE(std::holds_alternative<LbpCascade>(lbp_back.cascade));
        check_same(std::get<LbpCascade>(lbp.cascade), std::get<LbpCascade>(lbp_back.cascade));
    }
}

TEST_CASE("the project's format: a hand-written model loads, metadata is read past") {
    const Model m = cascade::load_model_from_string(tiny_lbp_xml(), "embedded:tiny");
    const auto& c = std::get<LbpCascade>(m.cascade);
    CHECK(c.window == cascade::Size{24, 24});
    REQUIRE(c.stages.size() == 1);
    CHECK(c.stages[0].threshold == 0.5f);
    REQUIRE(c.weaks.size() == 2);
    CHECK(c.weaks[1].feature.x == 3);
    CHECK(c.weaks[1].feature.height == 6);
    CHECK(c.responses[0] == -0.5f);
    CHECK(c.responses[255] == 0.25f);
}

TEST_CASE("a HoG learner's slope of -0 reads back as -0 (found by fuzz_packed: it was not written, and came back +0)") {
    TempDir dir;
    const std::string path = dir.file("h.xml");
    const auto slope = [](const cascade::Model& m) { return std::get<HogCascade>(m.cascade).weaks[0].slope; };
    const cascade::Model model =
        cascade::load_model_from_string(tiny_hog_xml("3", R"(cuts="0" responses="-0.5 0.5" slope="-0")"), "h.xml");
    REQUIRE(std::signbit(slope(model)));
    cascade::save_model(model, path);
    CHECK(std::signbit(slope(cascade::load_model(path))));
}

TEST_CASE("the project's format: HoG learners with a vote (any version) or cuts, responses and a slope (version 3)") {
    const auto learner = [](const std::string& version, const std::string& response) {
        return std::get<HogCascade>(cascade::load_model_from_string(tiny_hog_xml(version, response), "h").cascade)
            .weaks.at(0);
    };
    const cascade::HogWeak vote = learner("1", R"(vote="0.75")");
    CHECK(vote.block == cascade::Rect{8, 16, 16, 32});
    CHECK(vote.weights[1] == 0.25f);
    CHECK(vote.bias == 0.125f);
    CHECK(vote.num_cuts == 1);
    CHECK(vote.cuts[0] == 0.f);
    CHECK(vote.responses[0] == -0.75f);
    CHECK(vote.responses[1] == 0.75f);
    CHECK(vote.slope == 0.f);
    CHECK(cascade::is_vote(vote));

    const cascade::HogWeak real = learner("3", R"(cuts="-0.5 0 0.25" responses="-1 -0.25 0.5 2")");
    CHECK(real.num_cuts == 3);
    CHECK(real.cuts[2] == 0.25f);
    CHECK(real.responses[3] == 2.f);
    CHECK(real.slope == 0.f);
    CHECK(!cascade::is_vote(real));
    const cascade::HogWeak linear = learner("3", R"(cuts="" responses="0" slope="1")");
    CHECK(linear.num_cuts == 0);
    CHECK(linear.responses[0] == 0.f);
    CHECK(linear.slope == 1.f);
    // A learner with one cut at 0 and opposite responses is a vote, written as one.
    CHECK(cascade::is_vote(learner("3", R"(cuts="0" responses="-0.5 0.5")")));

    const auto fails = [](const std::string& version, const std::string& response, const std::string& problem) {
        check_input_error([&] { cascade::load_model_from_string(tiny_hog_xml(version, response), "h.xml"); }, "h.xml",
                          problem);
    };
    fails("2", R"(cuts="0" responses="-1 1")", "has an unknown attribute 'cuts'");
    fails("3", R"(vote="1" cuts="0" responses="-1 1")", "has both vote and cuts/responses/slope");
    fails("3", R"(cuts="0 1")", "has no attribute 'responses'");
    fails("3", R"(cuts="0 1" responses="1 2")", "has 2 cuts and 2 responses (one more than cuts needed)");
    fails("3", R"(cuts="1 2 3 4 5 6 7 8" responses="0 0 0 0 0 0 0 0 0")", "attribute cuts holds 8 values (0 to 7");
    fails("3", R"(cuts="0 x" responses="1 2 3")", "attribute cuts value 1 'x' is not a number");
    fails("3", R"(cuts="1 0" responses="1 2 3")", "cuts are not in ascending order at cut 1");
    fails("4", R"(vote="1" descriptor="dalal-triggs")", "descriptor needs format_version 5 or later");
    fails("5", R"(vote="1" descriptor="sobel")",
          "descriptor 'sobel' is not supported (dalal-triggs, dalal-triggs-gamma, lbp-histogram)");
    fails("6", R"(vote="1" descriptor="dalal-triggs-gamma")", "descriptor dalal-triggs-gamma needs format_version 7 or later");
    fails("5", R"(vote="1" descriptor="dalal-triggs")", "block (8,16,16,32) is a Dalal-Triggs block, which is 16x16");
}

TEST_CASE("the project's format: LBP-histogram learners (version 8) read, write and refuse bad cells, bins, weights") {
    // A 16x16 cell at (16, 32) with bins 36-58: 23 weights, then 13 zeros.
    const std::string square = R"(x="16" y="32" w="16" h="16")";
    std::string weights;
    for (int i = 0; i < cascade::kHogBlockDims; ++i) weights += i < 23 ? " 0.5" : " 0";
    const auto lbp_xml = [&](const std::string& version, const std::string& cell, const std::string& attributes,
                               const std::string& w) {
        return "<?xml version=\"1.0\"?>\n<cascade_model format_version=\"" + version +
               "\" kind=\"hog\" sum_policy=\"per_stage\">\n  <window width=\"64\" height=\"128\"/>\n"
               "  <stages><stage first=\"0\" count=\"1\" threshold=\"0.5\"/></stages>\n"
               "  <weak_learners><hog " + cell + R"( bias="0" cuts="" responses="0" slope="1" )" + attributes + ">" + w +
               "</hog></weak_learners>\n</cascade_model>\n";
    };
    const auto model = cascade::load_model_from_string(
        lbp_xml("8", square, R"(descriptor="lbp-histogram" first-bin="36")", weights), "l.xml");
    const cascade::HogWeak& w = std::get<cascade::HogCascade>(model.cascade).weaks.at(0);
    CHECK(w.descriptor == cascade::kHogDescriptorLbpHistogram);
    CHECK(w.first_bin == 36);
    CHECK(w.block == cascade::Rect{16, 32, 16, 16});
    CHECK(w.weights[22] == 0.5f);
    CHECK(cascade::uses_lbp_bins(std::get<cascade::HogCascade>(model.cascade)));
    const auto again = cascade::load_model_from_string(cascade::model_xml(model, "l.xml"), "again.xml");
    const cascade::HogWeak& w2 = std::get<cascade::HogCascade>(again.cascade).weaks.at(0);
    CHECK(w2.first_bin == 36);
    CHECK(w2.descriptor == cascade::kHogDescriptorLbpHistogram);
    CHECK(std::memcmp(&w, &w2, sizeof w) == 0);

    const auto fails = [&](const std::string& version, const std::string& cell, const std::string& attributes,
                           const std::string& wts, const std::string& problem) {
        check_input_error([&] { cascade::load_model_from_string(lbp_xml(version, cell, attributes, wts), "l.xml"); },
                          "l.xml", problem);
    };
    std::string one_too_many = weights;
    one_too_many.replace(one_too_many.find(" 0", 23 * 4), 2, " 1");
    fails("7", square, R"(descriptor="lbp-histogram")", weights, "descriptor lbp-histogram needs format_version 8 or later");
    fails("8", square, R"(descriptor="dalal-triggs" first-bin="36")", weights,
          "first-bin belongs to descriptor=\"lbp-histogram\" learners only");
    fails("8", R"(x="16" y="32" w="16" h="8")", R"(descriptor="lbp-histogram")", weights,
          "block (16,32,16,8) is an LBP cell, which is square and at least 1x1");
    fails("8", R"(x="56" y="32" w="16" h="16")", R"(descriptor="lbp-histogram")", weights,
          "block (56,32,16,16) leaves the 64x128 window");
    fails("8", square, R"(descriptor="lbp-histogram" first-bin="59")", weights, "first bin 59 is outside 0..58");
    fails("8", square, R"(descriptor="lbp-histogram" first-bin="36")", one_too_many,
          "weight 23 is past the last LBP bin (58) and must be 0");
}

TEST_CASE("bad input files throw InputError naming the file") {
    TempDir dir;
    const auto load = [](const std::string& path) { return [path] { cascade::load_model(path); }; };

    SUBCASE("missing file") {
        const std::string path = dir.file("absent.xml");
        check_input_error(load(path), path, "cannot open file");
    }
    SUBCASE("directory") { check_input_error(load(dir.path().string()), dir.path().string(), "cannot open file"); }
    SUBCASE("empty file") {
        const std::string path = dir.file("empty.xml");
        write_text(path, "");
        check_input_error(load(path), path, "empty file");
    }
    SUBCASE("not XML") {
        const std::string path = dir.file("text.xml");
        write_text(path, "stage 0: 3 weak learners <<< not xml");
        check_input_error(load(path), path, "not an XML file (");
    }
    SUBCASE("XML of another kind") {
        const std::string path = dir.file("other.xml");
        write_text(path, "<?xml version=\"1.0\"?>\n<svg width=\"3\"/>\n");
        check_input_error(load(path), path, "not a cascade model (root element <svg>)");
    }
    SUBCASE("future format version") {
        const std::string path = dir.file("future.xml");
        const std::string newer = std::to_string(cascade::kModelFormatVersion + 1);
        write_text(path, tiny_lbp_xml(newer));
        check_input_error(load(path), path,
                          "format version " + newer + " is newer than this build supports (" +
                              std::to_string(cascade::kModelFormatVersion) + ")");
    }
    SUBCASE("an acceptance threshold in a version 1 file") {
        const std::string path = dir.file("v1_accept.xml");
        write_text(path, tiny_lbp_xml("1", R"(<stage first="0" count="2" threshold="0.5" accept="2"/>)"));
        check_input_error(load(path), path, "has an unknown attribute 'accept'");
    }
    SUBCASE("an acceptance threshold on a per-stage sum") {
        const std::string path = dir.file("per_stage_accept.xml");
        write_text(path, tiny_lbp_xml("2", R"(<stage first="0" count="2" threshold="0.5" accept="2"/>)"));
        check_input_error(load(path), path, "stage 0: has an acceptance threshold, which needs the running sum policy");
    }
    SUBCASE("stages that do not cover the weak learners") {
        const std::string path = dir.file("short_stage.xml");
        write_text(path, tiny_lbp_xml("1", R"(<stage first="0" count="1" threshold="0.5"/>)"));
        check_input_error(load(path), path, "the stages cover 1 weak learners but the cascade has 2");
    }
    SUBCASE("stages with a gap") {
        const std::string path = dir.file("gap.xml");
        write_text(path, tiny_lbp_xml("1", R"(<stage first="0" count="1" threshold="0.5"/>
                                              <stage first="2" count="1" threshold="0.5"/>)"));
        check_input_error(load(path), path, "stage 1: starts at weak learner 2, expected 1");
    }
    SUBCASE("a feature outside the window") {
        const std::string path = dir.file("outside.xml");
        write_text(path, tiny_lbp_xml("1", R"(<stage first="0" count="2" threshold="0.5"/>)",
                                      R"(<lbp x="0" y="0" w="1" h="1" table="0"/>
                                         <lbp x="20" y="3" w="3" h="4" table="0"/>)"));
        check_input_error(load(path), path, "stage 0 weak learner 1 (#1): feature (20,3,3,4) leaves the 24x24 window");
    }
    SUBCASE("a table that does not exist") {
        const std::string path = dir.file("table.xml");
        write_text(path, tiny_lbp_xml("1", R"(<stage first="0" count="2" threshold="0.5"/>)",
                                      R"(<lbp x="0" y="0" w="1" h="1" table="0"/>
                                         <lbp x="0" y="0" w="1" h="1" table="1"/>)"));
        check_input_error(load(path), path, "response table 1 does not exist");
    }
    SUBCASE("garbled number in our format") {
        const std::string path = dir.file("garbled.xml");
        write_text(path, replace_once(tiny_lbp_xml(), "threshold=\"0.5\"", "threshold=\"0.5x\""));
        check_input_error(load(path), path, "attribute threshold='0.5x' is not a number");
    }
    SUBCASE("misspelt attribute in our format") {
        const std::string path = dir.file("misspelt.xml");
        write_text(path, replace_once(tiny_lbp_xml(), "threshold=", "treshold="));
        check_input_error(load(path), path, "unknown attribute 'treshold'");
    }
    SUBCASE("response count that does not match") {
        const std::string path = dir.file("count.xml");
        write_text(path, replace_once(tiny_lbp_xml(), "count=\"256\"", "count=\"257\""));
        check_input_error(load(path), path, "holds 256 values but count=\"257\"");
    }
    SUBCASE("embedded model") {
        const std::string newer = std::to_string(cascade::kModelFormatVersion + 1);
        check_input_error([&] { cascade::load_model_from_string(tiny_lbp_xml(newer), "embedded:future"); },
                          "embedded:future", "format version " + newer + " is newer");
    }
}

TEST_CASE("bad OpenCV cascades throw InputError naming the file") {
    TempDir dir;
    const auto load = [](const std::string& path) { return [path] { cascade::load_model(path); }; };

    const auto face = cascade::test::system_file("/usr/share/opencv4/lbpcascades/lbpcascade_frontalface.xml");
    if (!face) return;
    const std::string original = read_text(*face);

    SUBCASE("truncated XML") {
        const std::string path = dir.file("truncated.xml");
        write_text(path, original.substr(0, original.size() / 2));
        check_input_error(load(path), path, "not an XML file (");
    }
    SUBCASE("a long stageType is quoted whole") {
        // The stage type's word once pointed into a freed temporary: a word longer than std::string's
        // inline buffer (15 characters) printed freed heap bytes.
        const std::string path = dir.file("stage-type.xml");
        write_text(path, replace_once(original, "<stageType>BOOST<", "<stageType>GENTLEBOOSTWITHLONGNAME<"));
        check_input_error(load(path), path, "stageType 'GENTLEBOOSTWITHLONGNAME' is not supported");
    }
    SUBCASE("maxCatCount other than 256") {
        const std::string path = dir.file("categories.xml");
        write_text(path, replace_once(original, "<maxCatCount>256<", "<maxCatCount>16<"));
        check_input_error(load(path), path, "maxCatCount 16 is not supported");
    }
    SUBCASE("maxDepth above 1") {
        const std::string path = dir.file("depth.xml");
        write_text(path, replace_once(original, "<maxDepth>1<", "<maxDepth>2<"));
        check_input_error(load(path), path, "maxDepth 2: trees deeper than stumps are not supported");
    }
    SUBCASE("a tree of two nodes") {
        const std::string path = dir.file("tree.xml");
        // The first stump's values, written twice: a tree of two nodes (the file has CRLF line ends).
        const std::size_t begin = original.find("<internalNodes>") + std::strlen("<internalNodes>");
        const std::size_t end = original.find("</internalNodes>", begin);
        REQUIRE(end != std::string::npos);
        const std::string stump = original.substr(begin, end - begin);
        write_text(path, original.substr(0, end) + " " + stump + original.substr(end));
        check_input_error(load(path), path, "stage 0 weak classifier 0");
        check_input_error(load(path), path, "a tree of 2 nodes; only stumps (maxDepth 1) are supported");
    }
    SUBCASE("garbled leaf") {
        const std::string path = dir.file("leaf.xml");
        write_text(path, replace_once(original, "-0.6543210148811340", "-0.65432x"));
        check_input_error(load(path), path, "value '-0.65432x' is not a finite number");
    }
    SUBCASE("missing features") {
        const std::string path = dir.file("features.xml");
        write_text(path, replace_once(replace_once(original, "<features>", "<featurez>"), "</features>", "</featurez>"));
        check_input_error(load(path), path, "has no <features>");
    }
    SUBCASE("feature index out of range") {
        const std::string path = dir.file("index.xml");
        write_text(path, replace_once(original, "0 -1 46 -67130709", "0 -1 4600 -67130709"));
        check_input_error(load(path), path, "feature index 4600 is out of range");
    }
}

TEST_CASE("validate names the first structural problem") {
    LbpCascade good;
    good.window = {24, 24};
    good.stages = {{0, 2, 0.f}};
    good.weaks = {{{0, 0, 8, 8}, 0}, {{1, 2, 3, 4}, 0}};
    good.responses.assign(cascade::kLbpCodes, 1.f);
    CHECK_NOTHROW(cascade::validate(good, "m.xml"));

    const auto fails = [&](const std::function<void(LbpCascade&)>& spoil, const std::string& problem) {
        LbpCascade c = good;
        spoil(c);
        check_input_error([&] { cascade::validate(c, "m.xml"); }, "m.xml", problem);
    };
    fails([](LbpCascade& c) { c.window = {0, 24}; }, "window size 0x24 is not positive");
    fails([](LbpCascade& c) { c.window = {5000, 24}; }, "exceeds 4096");
    fails([](LbpCascade& c) { c.stages.clear(); }, "no stages");
    fails([](LbpCascade& c) { c.stages = {{0, 1, 0.f}, {1, 0, 0.f}}; }, "stage 1: has 0 weak learners");
    fails([](LbpCascade& c) { c.stages = {{1, 1, 0.f}}; }, "stage 0: starts at weak learner 1, expected 0");
    fails([](LbpCascade& c) { c.stages = {{0, 3, 0.f}}; }, "covers weak learners 0..2 but the cascade has only 2");
    fails([](LbpCascade& c) { c.stages[0].threshold = NAN; }, "stage 0: threshold is nan");
    fails([](LbpCascade& c) { c.weaks[1].feature.width = 0; }, "stage 0 weak learner 1 (#1): feature (1,2,0,4) has a cell size below 1x1");
    fails([](LbpCascade& c) { c.weaks[0].feature.x = -1; }, "feature (-1,0,8,8) leaves the 24x24 window");
    fails([](LbpCascade& c) { c.weaks[0].feature.y = 1; }, "feature (0,1,8,8) leaves the 24x24 window");
    fails([](LbpCascade& c) { c.weaks[1].table = -1; }, "response table -1 does not exist");
    fails([](LbpCascade& c) { c.responses.push_back(0.f); }, "not a positive multiple of 256");
    fails([](LbpCascade& c) { c.responses[77] = INFINITY; }, "response table 0 entry 77 is inf");
    fails([](LbpCascade& c) { c.stages[0].accept = 1.f; }, "stage 0: has an acceptance threshold, which needs");
    fails(
        [](LbpCascade& c) {
            c.policy = cascade::SumPolicy::running;
            c.stages[0].accept = -0.5f;
        },
        "stage 0: acceptance threshold -0.5 is not above the rejection threshold 0");
    fails(
        [](LbpCascade& c) {
            c.policy = cascade::SumPolicy::running;
            c.stages[0].accept = NAN;
        },
        "stage 0: acceptance threshold nan is not above");

    HogCascade hog;
    hog.window = {64, 128};
    hog.stages = {{0, 1, 0.f}};
    hog.weaks.resize(1);
    hog.weaks[0].block = {48, 112, 16, 16};
    CHECK_NOTHROW(cascade::validate(hog, "h.xml"));
    const auto hog_fails = [&](const std::function<void(HogCascade&)>& spoil, const std::string& problem) {
        HogCascade c = hog;
        spoil(c);
        check_input_error([&] { cascade::validate(c, "h.xml"); }, "h.xml", problem);
    };
    hog_fails([](HogCascade& c) { c.weaks[0].block.width = 15; }, "block (48,112,15,16) needs an even, positive");
    hog_fails([](HogCascade& c) { c.weaks[0].block.height = 0; }, "needs an even, positive");
    hog_fails([](HogCascade& c) { c.weaks[0].block.x = 50; }, "block (50,112,16,16) leaves the 64x128 window");
    hog_fails([](HogCascade& c) { c.weaks[0].weights[35] = NAN; }, "weight 35 is nan");
    hog_fails([](HogCascade& c) { c.weaks[0].responses[1] = -INFINITY; }, "response 1 is -inf");
    hog_fails([](HogCascade& c) { c.weaks[0].num_cuts = cascade::kHogMaxBins; }, "8 cuts (0 to 7 allowed)");
    hog_fails([](HogCascade& c) { c.weaks[0].num_cuts = -1; }, "-1 cuts (0 to 7 allowed)");
    hog_fails([](HogCascade& c) { c.weaks[0].descriptor = 7; }, "descriptor 7 is unknown (0, 1, 2 or 3)");
    hog_fails([](HogCascade& c) { c.weaks[0].first_bin = 3; }, "first bin 3 on a learner without LBP bins");
    hog_fails(
        [](HogCascade& c) {
            c.weaks[0].num_cuts = 3;
            c.weaks[0].cuts[0] = 0.5f;
            c.weaks[0].cuts[1] = 0.5f;
        },
        "cuts are not in ascending order at cut 1");
    hog_fails([](HogCascade& c) { c.weaks[0].cuts[2] = 1.f; }, "unused cut 2 is not 0");
    hog_fails([](HogCascade& c) { c.weaks[0].responses[2] = 1.f; }, "unused response 2 is not 0");
    // -0 too: the XML writes no unused entry, so a packed model holding one would not survive a save and a load.
    hog_fails([](HogCascade& c) { c.weaks[0].responses[3] = -0.f; }, "unused response 3 is not 0");
    hog_fails([](HogCascade& c) { c.weaks[0].cuts[4] = -0.f; }, "unused cut 4 is not 0");
    hog_fails([](HogCascade& c) { c.weaks[0].cuts[0] = NAN; }, "cut 0 is nan");
    hog_fails([](HogCascade& c) { c.weaks[0].slope = INFINITY; }, "slope is inf");
}

TEST_CASE("save_model writes atomically") {
    TempDir dir;
    std::mt19937 rng(7);
    Model model;
    model.cascade = random_hog_cascade(rng);

    SUBCASE("into a directory that does not exist: throws, leaves nothing") {
        const std::string path = (dir.path() / "no_such_dir" / "model.xml").string();
        check_input_error([&] { cascade::save_model(model, path); }, path, "cannot write");
        CHECK(!fs::exists(dir.path() / "no_such_dir"));
        CHECK(directory_listing(dir.path()).empty());
    }
    SUBCASE("over an existing file: replaces it by rename, no temporaries left") {
        const std::string path = dir.file("model.xml");
        write_text(path, "old contents");
        struct stat before {};
        REQUIRE(::stat(path.c_str(), &before) == 0);
        std::ifstream reader_of_old(path, std::ios::binary);  // a reader that opened the old file

        cascade::save_model(model, path);

        struct stat after {};
        REQUIRE(::stat(path.c_str(), &after) == 0);
        CHECK(before.st_ino != after.st_ino);  // a new file renamed over the old, not rewritten in place
        std::ostringstream old_text;
        old_text << reader_of_old.rdbuf();
        CHECK(old_text.str() == "old contents");  // the reader never sees a mix
        check_same(std::get<HogCascade>(model.cascade), std::get<HogCascade>(cascade::load_model(path).cascade));
        CHECK(directory_listing(dir.path()) == std::vector<std::string>{"model.xml"});
    }
    SUBCASE("an invalid model is refused and the existing file kept") {
        const std::string path = dir.file("model.xml");
        cascade::save_model(model, path);
        const std::string before = read_text(path);
        Model broken = model;
        std::get<HogCascade>(broken.cascade).weaks[0].block.width = 3;
        check_input_error([&] { cascade::save_model(broken, path); }, path, "needs an even, positive");
        CHECK(read_text(path) == before);
        CHECK(directory_listing(dir.path()) == std::vector<std::string>{"model.xml"});
    }
}
