// cascade-train haar (train/haar/haar_stage_features.hpp) on a subset of ../shared/data's faces: a freshly
// trained Haar cascade (ALL features, tilted ones included), written in OpenCV's XML, loads in
// cv::CascadeClassifier and gives exactly the detections of this toolkit's CPU detector on real images; the
// cascade does not depend on the thread count, and a resumed run gives an uninterrupted one's; the same for a
// cascade of depth-2 trees; the command writes both XML files, the same model, and refuses bad options in one
// line.
#include <doctest/doctest.h>

#include <algorithm>
#include <stdexcept>
#include <opencv2/objdetect.hpp>

#include "common/error.hpp"
#include "common/haar_cpu_detector.hpp"
#include "common/model_io.hpp"
#include "common/opencv_cascade_xml.hpp"
#include "data/image_files.hpp"
#include "data/positive_samples.hpp"
#include "tests/support/scratch_files.hpp"
#include "tests/support/test_data.hpp"
#include "tests/support/tool_run.hpp"
#include "tests/train/opencv_parity.hpp"
#include "train/haar/haar_stage_features.hpp"

using namespace cascade;
using namespace cascade::train;

namespace {

lbp::LbpTrainingData face_subset(const std::string& data) {
    std::vector<data::PositiveSource> sources = data::find_positives(data + "/faces/mit_cbcl_19x19");
    sources.resize(std::min<std::size_t>(sources.size(), 300));
    const data::CropParams crop{{19, 19}, data::Margin(0), 0.0, true, {}};
    lbp::LbpTrainingData out;
    for (data::PositiveSample& s : data::load_positives(sources, crop, 0)) out.positives.push_back(std::move(s.window));
    std::vector<std::string> images = data::list_images(data + "/negatives_web");
    images.resize(20);
    out.negatives = data::index_negative_images(images, {19, 19}, "negatives", 0);
    return out;
}

lbp::StageTrainConfig small_config(int threads) {
    lbp::StageTrainConfig c;
    c.window = {19, 19};
    c.stages = 3;
    c.negatives = 300;
    c.features = 2000;
    c.boost.max_weak_count = 20;
    c.boost.threads = threads;
    return c;
}

struct Quiet : lbp::StageTrainingObserver {};

struct Interrupt : lbp::StageTrainingObserver {
    explicit Interrupt(int stages) : after(stages) {}
    void checkpointed(int stages, const std::string&) override {
        if (stages == after) throw std::runtime_error("interrupted");
    }
    int after;
};

// A run long enough for the parity checks: it stops by its false alarm target after at least three stages.
haar::HaarStageResult train_three_or_more(const lbp::StageTrainConfig& config, haar::HaarMode mode,
                                          const lbp::LbpTrainingData& subset) {
    Quiet quiet;
    haar::HaarStageResult result = haar::train_haar_stages(config, mode, subset, quiet);
    MESSAGE(result.cascade.stages.size() << " stages: " << result.stopped_because);
    REQUIRE(result.cascade.stages.size() >= 3);
    return result;
}

bool has_tilted(const HaarCascade& c) {
    return std::any_of(c.nodes.begin(), c.nodes.end(), [](const HaarNode& n) { return n.feature.tilted != 0; });
}

}  // namespace

TEST_CASE("Lienhart and Maydt's feature sets: Viola and Jones' count for BASIC, every feature inside the window") {
    const auto basic = haar::haar_features({24, 24}, haar::HaarMode::basic);
    CHECK(basic.size() == 162336);  // Viola and Jones' five feature kinds on 24x24, the figure often quoted
    const auto core = haar::haar_features({24, 24}, haar::HaarMode::core);
    const auto all = haar::haar_features({24, 24}, haar::HaarMode::all);
    CHECK(core.size() > basic.size());
    CHECK(all.size() > core.size());
    // Every ALL feature as a stump of a one-stage cascade: validate() refuses a rectangle outside the window.
    HaarCascade cascade;
    cascade.window = {24, 24};
    for (const HaarFeature& f : all) {
        cascade.weaks.push_back({static_cast<int>(cascade.nodes.size()), 1, static_cast<int>(cascade.leaves.size())});
        cascade.nodes.push_back({f, 0.f, 0, -1});
        cascade.leaves.insert(cascade.leaves.end(), {-1.f, 1.f});
    }
    cascade.stages.push_back({0, static_cast<int>(all.size()), 0.f});
    CHECK_NOTHROW(validate(cascade, "all features"));
    CHECK(std::count_if(all.begin(), all.end(), [](const HaarFeature& f) { return f.tilted != 0; }) ==
          static_cast<long>(all.size() - core.size()));
}

TEST_CASE("a trained Haar cascade in OpenCV's XML: cv::CascadeClassifier finds what the CPU detector finds") {
    const auto data = cascade::test::shared_data_dir();
    const auto images = cascade::test::real_images();
    if (!data || images.empty()) {
        MESSAGE("SKIP: ../shared/data or the opencv-doc images are absent");
        return;
    }
    lbp::StageTrainConfig config = small_config(2);
    config.stages = 10;  // it stops earlier, at 0.5^10 false alarms per window
    const haar::HaarStageResult result = train_three_or_more(config, haar::HaarMode::all, face_subset(*data));
    CHECK(has_tilted(result.cascade));  // the tilted integral's path is compared too
    MESSAGE(result.cascade.weaks.size() << " weak learners; false alarm rate " << result.false_alarm);

    cascade::test::ScratchDir dir("haar-train");
    const std::string path = dir.file("cascade.xml");
    OpenCvStageParams params;
    params.haar_mode = "ALL";
    cascade::test::check_opencv_parity(result.cascade, path, images, params);
    // Tilted features under another mode's name would be a file that contradicts itself.
    params.haar_mode = "CORE";
    CHECK_THROWS_AS(opencv_cascade_xml(result.cascade, params, path), InputError);
}

TEST_CASE("the Haar stage trainer gives the same cascade on 1 and 2 threads, and after an interruption and resume") {
    const auto data = cascade::test::shared_data_dir();
    if (!data) {
        MESSAGE("SKIP: ../shared/data is absent");
        return;
    }
    const lbp::LbpTrainingData subset = face_subset(*data);
    Quiet quiet;
    lbp::StageTrainConfig config = small_config(1);
    config.stages = 2;
    const auto one = haar::train_haar_stages(config, haar::HaarMode::core, subset, quiet);
    config.boost.threads = 2;
    const auto two = haar::train_haar_stages(config, haar::HaarMode::core, subset, quiet);
    CHECK(opencv_cascade_xml(one.cascade, {}, "m") == opencv_cascade_xml(two.cascade, {}, "m"));

    config.stages = 6;
    const std::string whole = opencv_cascade_xml(haar::train_haar_stages(config, haar::HaarMode::core, subset, quiet).cascade, {}, "m");
    cascade::test::ScratchDir dir("haar-resume");
    config.checkpoint = dir.file("cascade.checkpoint");
    Interrupt interrupt(2);
    CHECK_THROWS_AS(haar::train_haar_stages(config, haar::HaarMode::core, subset, interrupt), std::runtime_error);
    config.resume = true;
    const auto resumed = haar::train_haar_stages(config, haar::HaarMode::core, subset, quiet);
    CHECK(resumed.cascade.stages.size() > 2);
    CHECK(opencv_cascade_xml(resumed.cascade, {}, "m") == whole);
    // Another mode is another training: its checkpoint is refused.
    CHECK_THROWS_AS(haar::train_haar_stages(config, haar::HaarMode::all, subset, quiet), InputError);
}

TEST_CASE("Haar trees of depth 2: cv::CascadeClassifier finds what the CPU detector finds, and resumed gives the same trees") {
    const auto data = cascade::test::shared_data_dir();
    const auto images = cascade::test::real_images();
    if (!data || images.empty()) {
        MESSAGE("SKIP: ../shared/data or the opencv-doc images are absent");
        return;
    }
    const lbp::LbpTrainingData subset = face_subset(*data);
    Quiet quiet;
    lbp::StageTrainConfig config = small_config(2);
    config.stages = 8;  // it stops earlier, at 0.5^8 false alarms per window
    config.boost.max_depth = 2;
    const haar::HaarStageResult whole = train_three_or_more(config, haar::HaarMode::core, subset);
    const auto& weaks = whole.cascade.weaks;
    CHECK(std::any_of(weaks.begin(), weaks.end(), [](const HaarTree& t) { return t.node_count == 3; }));
    CHECK(std::all_of(weaks.begin(), weaks.end(), [](const HaarTree& t) { return t.node_count <= 3; }));

    cascade::test::ScratchDir dir("haar-trees");
    OpenCvStageParams params;
    params.haar_mode = "CORE";
    params.max_depth = 2;
    cascade::test::check_opencv_parity(whole.cascade, dir.file("cascade.xml"), images, params);
    CHECK(opencv_cascade_xml(whole.cascade, params, "m").find("<maxDepth>2</maxDepth>") != std::string::npos);

    config.checkpoint = dir.file("cascade.checkpoint");
    Interrupt interrupt(2);
    CHECK_THROWS_AS(haar::train_haar_stages(config, haar::HaarMode::core, subset, interrupt), std::runtime_error);
    config.resume = true;
    const auto resumed = haar::train_haar_stages(config, haar::HaarMode::core, subset, quiet);
    CHECK(opencv_cascade_xml(resumed.cascade, params, "m") == opencv_cascade_xml(whole.cascade, params, "m"));
    // Another depth is another training: its checkpoint is refused.
    config.boost.max_depth = 3;
    CHECK_THROWS_AS(haar::train_haar_stages(config, haar::HaarMode::core, subset, quiet), InputError);
}

TEST_CASE("cascade-train haar writes OpenCV's XML and the project's, the same model, bad options in one line") {
    const auto data = cascade::test::shared_data_dir();
    if (!data) {
        MESSAGE("SKIP: ../shared/data is absent");
        return;
    }
    const cascade::test::TempDir dir("haar-cli");
    const std::string pos = cascade::test::list_of_first(*data + "/faces/mit_cbcl_19x19", 300, dir, "pos.lst");
    const std::string neg = cascade::test::list_of_first(*data + "/negatives_web", 20, dir, "neg.lst");
    const std::vector<std::string> args = {"haar", "--pos", pos, "--pos-margin", "0", "--neg", neg, "--window", "19x19",
                                           "--stages", "2", "--negatives", "200", "--features", "1000",
                                           "--haar-mode", "core", "--output", dir / "face.xml"};
    const cascade::test::ToolResult r = cascade::test::run_tool(CASCADE_TRAIN_EXE, args);
    INFO("stderr: " << r.err);
    REQUIRE(r.code == 0);
    CHECK(r.out.find("stage 1/2 done") != std::string::npos);
    const std::string opencv_xml = cascade::test::read_text(dir / "face.xml");
    CHECK(opencv_xml.find("<featureType>HAAR</featureType>") != std::string::npos);
    CHECK(opencv_xml.find("<mode>CORE</mode>") != std::string::npos);
    cv::CascadeClassifier opencv(dir / "face.xml");
    CHECK(!opencv.empty());
    const Model project = load_model(dir / "face.model.xml"), theirs = load_model(dir / "face.xml");
    CHECK(model_xml(Model{project.cascade, "m"}, "m") == model_xml(Model{theirs.cascade, "m"}, "m"));

    const auto with = [&](const std::string& option, const std::string& value) {
        std::vector<std::string> bad = args;
        const auto at = std::find(bad.begin(), bad.end(), option);
        if (at == bad.end()) {
            bad.push_back(option);
            if (!value.empty()) bad.push_back(value);
        } else {
            *(at + 1) = value;
        }
        return cascade::test::run_tool(CASCADE_TRAIN_EXE, bad);
    };
    // The finished run's checkpoint: --resume trains nothing and writes the same cascade.
    const cascade::test::ToolResult again = with("--resume", "");
    REQUIRE(again.code == 0);
    CHECK(cascade::test::read_text(dir / "face.xml") == opencv_xml);
    cascade::test::check_error(with("--haar-mode", "tilted"), 2, "cascade-train haar", "--haar-mode");
    cascade::test::check_error(with("--window", "2x2"), 2, "cascade-train haar", "--window");
    cascade::test::check_error(with("--features", "-1"), 2, "cascade-train haar", "--features");
    cascade::test::check_error(with("--boost", "ada"), 2, "cascade-train haar", "--boost");
    for (const char* depth : {"0", "-1", "26"})
        cascade::test::check_error(with("--max-depth", depth), 2, "cascade-train haar", "--max-depth");
}
