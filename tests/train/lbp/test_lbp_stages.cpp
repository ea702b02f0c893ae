// cascade-train lbp-opencv's trainer (train/lbp/stage_trainer.hpp) on a subset of ../shared/data's faces: a
// freshly trained cascade, written in OpenCV's XML, loads in cv::CascadeClassifier and gives exactly the
// detections of this toolkit's CPU detector on real images; the cascade does not depend on the thread count,
// and a run resumed after an interruption writes the cascade of an uninterrupted one.
#include <doctest/doctest.h>

#include <algorithm>
#include <stdexcept>

#include "cli/usage_error.hpp"
#include "common/error.hpp"
#include "common/lbp_cpu_detector.hpp"
#include "common/model_io.hpp"
#include "common/opencv_cascade_xml.hpp"
#include "data/image_files.hpp"
#include "data/positive_samples.hpp"
#include "tests/support/scratch_files.hpp"
#include "tests/support/test_data.hpp"
#include "tests/support/tool_run.hpp"
#include "tests/train/opencv_parity.hpp"
#include "train/lbp/stage_trainer.hpp"

using namespace cascade;
using namespace cascade::train::lbp;

namespace {

LbpTrainingData face_subset(const std::string& data) {
    std::vector<data::PositiveSource> sources = data::find_positives(data + "/faces/mit_cbcl_19x19");
    sources.resize(std::min<std::size_t>(sources.size(), 500));
    const data::CropParams crop{{24, 24}, data::Margin(0), 0.0, true, {}};
    LbpTrainingData out;
    for (data::PositiveSample& s : data::load_positives(sources, crop, 0)) out.positives.push_back(std::move(s.window));
    std::vector<std::string> images = data::list_images(data + "/negatives_web");
    images.resize(40);
    out.negatives = data::index_negative_images(images, {24, 24}, "negatives", 0);
    return out;
}

StageTrainConfig small_config(int threads) {
    StageTrainConfig c;
    c.window = {24, 24};
    c.stages = 4;
    c.negatives = 300;
    c.features = 3000;
    c.boost.max_weak_count = 20;
    c.boost.threads = threads;
    return c;
}

struct Quiet : StageTrainingObserver {};

struct Interrupt : StageTrainingObserver {
    explicit Interrupt(int stages) : after(stages) {}
    void checkpointed(int stages, const std::string&) override {
        if (stages == after) throw std::runtime_error("interrupted");
    }
    int after;
};

}  // namespace

TEST_CASE("a trained LBP cascade in OpenCV's XML: cv::CascadeClassifier finds what the CPU detector finds") {
    const auto data = cascade::test::shared_data_dir();
    const auto images = cascade::test::real_images();
    if (!data || images.empty()) {
        MESSAGE("SKIP: ../shared/data or the opencv-doc images are absent");
        return;
    }
    const LbpTrainingData subset = face_subset(*data);
    Quiet quiet;
    StageTrainConfig config = small_config(2);
    config.stages = 10;  // few enough raw windows on the larger frames for grouping to stay quick
    const StageTrainingResult result = train_lbp_stages(config, subset, quiet);
    REQUIRE(result.cascade.stages.size() == 10);
    MESSAGE(result.cascade.weaks.size() << " weak learners; false alarm rate " << result.false_alarm);

    cascade::test::ScratchDir dir("lbp-opencv");
    const std::string path = dir.file("cascade.xml");
    cascade::test::check_opencv_parity(result.cascade, path, images);
}

TEST_CASE("the stage trainer gives the same cascade on 1 and 2 threads, and after an interruption and --resume") {
    const auto data = cascade::test::shared_data_dir();
    if (!data) {
        MESSAGE("SKIP: ../shared/data is absent");
        return;
    }
    const LbpTrainingData subset = face_subset(*data);
    StageTrainConfig config = small_config(1);
    config.stages = 3;
    Quiet quiet;
    const std::string one = opencv_cascade_xml(train_lbp_stages(config, subset, quiet).cascade, {}, "one");

    cascade::test::ScratchDir dir("lbp-opencv-resume");
    config.boost.threads = 2;
    config.checkpoint = dir.file("cascade.checkpoint");
    Interrupt interrupt(2);
    CHECK_THROWS_AS(train_lbp_stages(config, subset, interrupt), std::runtime_error);
    config.resume = true;
    const StageTrainingResult resumed = train_lbp_stages(config, subset, quiet);
    CHECK(resumed.cascade.stages.size() == 3);
    CHECK(opencv_cascade_xml(resumed.cascade, {}, "one") == one);
    // A finished run's checkpoint resumes to the same cascade without training.
    CHECK(opencv_cascade_xml(train_lbp_stages(config, subset, quiet).cascade, {}, "one") == one);
}

TEST_CASE("the stage trainer's bad input and unreachable targets: an error, or a clear stop with the stages so far") {
    const auto data = cascade::test::shared_data_dir();
    if (!data) {
        MESSAGE("SKIP: ../shared/data is absent");
        return;
    }
    LbpTrainingData subset = face_subset(*data);
    Quiet quiet;
    StageTrainConfig config = small_config(2);
    config.boost.max_false_alarm = 0.0;
    CHECK_THROWS_AS(train_lbp_stages(config, subset, quiet), cli::UsageError);

    // A hit rate of 1: every stage keeps every positive, and stops at --max-weak-count if it must.
    config = small_config(2);
    config.stages = 2;
    config.boost.min_hit_rate = 1.0;
    config.boost.max_weak_count = 3;
    const StageTrainingResult all = train_lbp_stages(config, subset, quiet);
    REQUIRE(all.cascade.stages.size() == 2);
    for (const Stage& s : all.cascade.stages) CHECK(s.count <= 3);

    // One negative image runs dry: the run stops, says why, and returns the stages it has.
    subset.negatives.resize(1);
    config = small_config(2);
    config.stages = 20;
    const StageTrainingResult dry = train_lbp_stages(config, subset, quiet);
    MESSAGE(dry.stopped_because);
    CHECK(dry.stopped_because.find("scanned every window") != std::string::npos);
    CHECK(!dry.cascade.stages.empty());
    CHECK(dry.cascade.stages.size() < 20);

    subset.negatives.clear();
    CHECK_THROWS_AS(train_lbp_stages(config, subset, quiet), InputError);
}

TEST_CASE("cascade-train lbp-opencv writes OpenCV's XML and the project's, the same model, --resume writes it again") {
    const auto data = cascade::test::shared_data_dir();
    if (!data) {
        MESSAGE("SKIP: ../shared/data is absent");
        return;
    }
    const cascade::test::TempDir dir("lbp-opencv-cli");
    const std::string pos = cascade::test::list_of_first(*data + "/faces/mit_cbcl_19x19", 300, dir, "pos.lst");
    const std::string neg = cascade::test::list_of_first(*data + "/negatives_web", 20, dir, "neg.lst");
    const std::vector<std::string> args = {"lbp-opencv", "--pos", pos, "--pos-margin", "0", "--neg", neg,
                                           "--window", "19x19", "--stages", "3", "--negatives", "200",
                                           "--boost", "real", "--output", dir / "face.xml"};
    const cascade::test::ToolResult r = cascade::test::run_tool(CASCADE_TRAIN_EXE, args);
    INFO("stderr: " << r.err);
    REQUIRE(r.code == 0);
    CHECK(r.out.find("stage 3/3 done") != std::string::npos);
    CHECK(r.out.find("hit rate") != std::string::npos);
    const std::string opencv_xml = cascade::test::read_text(dir / "face.xml");
    CHECK(opencv_xml.find("<boostType>RAB</boostType>") != std::string::npos);
    cv::CascadeClassifier opencv(dir / "face.xml");
    CHECK(!opencv.empty());
    const Model project = load_model(dir / "face.model.xml"), theirs = load_model(dir / "face.xml");
    CHECK(model_xml(Model{project.cascade, "m"}, "m") == model_xml(Model{theirs.cascade, "m"}, "m"));
    // The finished run's checkpoint: --resume trains nothing and writes the same cascade.
    std::vector<std::string> resume = args;
    resume.push_back("--resume");
    const cascade::test::ToolResult again = cascade::test::run_tool(CASCADE_TRAIN_EXE, resume);
    REQUIRE(again.code == 0);
    CHECK(cascade::test::read_text(dir / "face.xml") == opencv_xml);
    // Depth 1 is the stumps above; deeper LBP trees are refused in one line that says why.
    resume.insert(resume.end(), {"--max-depth", "1"});
    REQUIRE(cascade::test::run_tool(CASCADE_TRAIN_EXE, resume).code == 0);
    CHECK(cascade::test::read_text(dir / "face.xml") == opencv_xml);
    for (const char* depth : {"0", "2", "20"}) {
        std::vector<std::string> deep = args;
        deep.insert(deep.end(), {"--max-depth", depth});
        const cascade::test::ToolResult bad = cascade::test::run_tool(CASCADE_TRAIN_EXE, deep);
        cascade::test::check_error(bad, 2, "cascade-train lbp-opencv", "--max-depth");
        if (std::string(depth) != "0") CHECK(bad.err.find("weak-learner form") != std::string::npos);
    }
}
