// The LBP trainer on a subset of ../shared/data: a short training separates held-out pedestrian crops from
// held-out negative windows, the result does not depend on the thread count, and a run resumed after an
// interruption ends with the very model of an uninterrupted one.
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <iterator>
#include <set>

#include "common/cascade_eval.hpp"
#include "common/error.hpp"
#include "common/integral.hpp"
#include "common/lbp_eval.hpp"
#include "common/model_io.hpp"
#include "data/holdout_split.hpp"
#include "data/image_files.hpp"
#include "data/positive_samples.hpp"
#include "tests/support/sanitized.hpp"
#include "tests/support/scratch_files.hpp"
#include "tests/support/test_data.hpp"
#include "train/checkpoint_file.hpp"
#include "train/lbp/histogram_svm_stage.hpp"
#include "train/lbp/lbp_evaluation.hpp"
#include "train/lbp/lbp_trainer.hpp"

using namespace cascade;
using namespace cascade::train::lbp;

namespace {

struct Subset {
    LbpTrainingData training;
    std::vector<GrayImage> heldout_positives;
    std::vector<std::string> heldout_negatives;
};

// Crops of `photos` training photos and `heldout_photos` others (split by photo, never by file), and
// disjoint sets of negative images.
Subset subset(const std::string& data, int photos, int heldout_photos, int negatives, int heldout_negatives) {
    const std::vector<data::PositiveSource> sources = data::find_positives(data + "/inria/96X160H96/Train/pos");
    std::vector<std::string> groups;
    for (const data::PositiveSource& s : sources) groups.push_back(s.group);
    const std::vector<bool> held = data::held_out_by_group(groups, 0.3, 1);
    std::vector<data::PositiveSource> train, test;
    std::set<std::string> train_groups, test_groups;
    for (std::size_t i = 0; i < sources.size(); ++i) {
        auto& chosen = held[i] ? test_groups : train_groups;
        if (static_cast<int>(chosen.size()) < (held[i] ? heldout_photos : photos) || chosen.count(groups[i])) {
            chosen.insert(groups[i]);
            (held[i] ? test : train).push_back(sources[i]);
        }
    }
    Subset out;
    const data::CropParams crop{{64, 128}, std::nullopt, 0.0, false, {}};
    for (data::PositiveSample& s : data::load_positives(train, crop, 0)) {
        out.training.positives.push_back(std::move(s.window));
        out.training.positive_groups.push_back(s.group);
    }
    for (data::PositiveSample& s : data::load_positives(test, crop, 0)) out.heldout_positives.push_back(std::move(s.window));
    const std::vector<std::string> images = data::list_images(data + "/negatives_web");
    std::vector<std::string> train_images(images.begin(), images.begin() + negatives);
    out.training.negatives = data::index_negative_images(train_images, {64, 128}, "negatives", 0);
    out.heldout_negatives.assign(images.end() - heldout_negatives, images.end());
    return out;
}

LbpTrainConfig small_config() {
    LbpTrainConfig c;
    c.window = {64, 128};
    c.features = 1500;
    c.negatives = 600;
    return c;
}

bool same(const LbpCascade& a, const LbpCascade& b) {
    if (a.weaks.size() != b.weaks.size() || a.stages.size() != b.stages.size() || a.responses != b.responses)
        return false;
    for (std::size_t i = 0; i < a.weaks.size(); ++i) {
        const LbpFeature f = a.weaks[i].feature, g = b.weaks[i].feature;
        if (f.x != g.x || f.y != g.y || f.width != g.width || f.height != g.height) return false;
        if (a.stages[i].threshold != b.stages[i].threshold || a.stages[i].accept != b.stages[i].accept) return false;
    }
    return true;
}

struct Quiet : LbpTrainingObserver {};

// Stops training (as a kill would) once `after` weak learners exist; remembers resumption notes.
struct Interrupt : LbpTrainingObserver {
    int after = 0;
    int checkpoints = 0;
    std::string notes;
    void weak_added(const WeakEvent& e) override {
        if (after > 0 && e.index + 1 == after) throw std::runtime_error("interrupted");
    }
    void checkpointed(int, const std::string&) override { ++checkpoints; }
    void note(const std::string& text) override { notes += text + "\n"; }
};

}  // namespace

TEST_CASE("a short training separates held-out crops from held-out negative windows") {
    const auto data = cascade::test::shared_data_dir();
    if (!data) return;
    const Subset s = subset(*data, 300, 100, 300, 40);
    LbpTrainConfig config = small_config();
    config.weak_learners = 120;
    config.features = 3000;
    config.negatives = 1500;
    config.alpha = 0.2;
    Quiet quiet;
    const LbpTrainingResult result = train_lbp(config, s.training, quiet);
    REQUIRE(result.cascade.weaks.size() == 120);
    const double detection = window_detection_rate(result.cascade, s.heldout_positives, 0);
    const NegativeScan scan = scan_negative_images(result.cascade, s.heldout_negatives, 1.2, 4, 0);
    MESSAGE(result.stopped_because << "; training cascade FPR " << result.fpr_estimate << ", mined "
                                   << result.negatives_mined << " from " << result.windows_scanned);
    MESSAGE("held out: detection rate " << detection << " on " << s.heldout_positives.size()
                                        << " crops, false-positive "
                                        << "rate " << scan.rate() << " on " << scan.windows << " windows");
    // Measured (seed 1, 2026-11-22): detection 0.79 at a false-positive rate of 0.038 (alpha 0.2 aims at a
    // miss rate of 0.2 on the calibration photos; unseen photos miss a little more). A trainer that learnt
    // nothing accepts crops and background alike (detection = false-positive rate); one with a sign error
    // detects less than it falsely accepts; thresholds set on the fitted positives rather than the calibration
    // ones detect a fifth of the crops (measured: 0.20). The bounds leave about two standard deviations for 100
    // held-out photos and 40 images.
    CHECK(detection >= 0.70);
    CHECK(scan.rate() <= 0.08);
    CHECK(scan.windows > 100000);
}

TEST_CASE("the model does not depend on the thread count, and a resumed run reproduces an uninterrupted one") {
    const auto data = cascade::test::shared_data_dir();
    if (!data) return;
    const Subset s = subset(*data, 50, 0, 30, 0);
    cascade::test::ScratchDir dir("resume");
    LbpTrainConfig config = small_config();
    config.weak_learners = 14;
    config.checkpoint_every = 5;
    config.checkpoint = dir.file("uninterrupted.checkpoint");
    config.threads = 2;
    Interrupt whole;
    const LbpCascade uninterrupted = train_lbp(config, s.training, whole).cascade;
    CHECK(whole.checkpoints >= 3);

    LbpTrainConfig one_thread = config;
    one_thread.threads = 1;
    one_thread.checkpoint.clear();
    Quiet quiet;
    CHECK(same(train_lbp(one_thread, s.training, quiet).cascade, uninterrupted));

    config.checkpoint = dir.file("interrupted.checkpoint");
    Interrupt killed;
    killed.after = 8;  // the last checkpoint before: after mining or at 5; weak learners 6..8 are lost
    CHECK_THROWS_WITH(train_lbp(config, s.training, killed), "interrupted");
    config.resume = true;
    Interrupt resumed;
    const LbpCascade continued = train_lbp(config, s.training, resumed).cascade;
    CHECK(resumed.notes.find("resumed from " + config.checkpoint) != std::string::npos);
    CHECK(same(continued, uninterrupted));

    // The checkpoint's model is the project's XML: it loads, and a model saved and loaded is the same.
    save_model(Model{continued, "test"}, dir.file("model.xml"));
    CHECK(same(std::get<LbpCascade>(load_model(dir.file("model.xml")).cascade), uninterrupted));
    CHECK(std::get<LbpCascade>(load_model(dir.file("interrupted.checkpoint.xml")).cascade).weaks.size() == 14);

    {  // A finished run's checkpoint resumes to the same model and trains no further.
        Interrupt again;
        CHECK(same(train_lbp(config, s.training, again).cascade, uninterrupted));
        CHECK(again.notes.find("the checkpoint's run had finished (reached 14 weak learners): no further training") !=
              std::string::npos);
        CHECK(again.checkpoints == 0);
    }
    {  // A checkpoint whose model or counts were changed is refused.
        const std::string state_path = config.checkpoint, model_path = dir.file("interrupted.checkpoint.xml");
        std::ifstream in(state_path, std::ios::binary);
        const std::string state((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        const auto refused = [&](const std::string& problem) {
            Quiet q;
            const std::string m = cascade::test::input_error([&] { train_lbp(config, s.training, q); });
            CHECK(m.find(problem) != std::string::npos);
        };
        // A count changed by hand: the checksum no longer matches (and resigned, the count is checked).
        const std::size_t at = state.find("weak_learners 14\n");
        REQUIRE(at != std::string::npos);
        std::string flipped = state;
        flipped.replace(at, 16, "weak_learners 12");
        std::ofstream(state_path, std::ios::binary) << flipped;
        refused("its checksum does not match its content");
        std::string body = state.substr(0, state.rfind("checksum ")), negative = body;
        negative.replace(at, 16, "weak_learners -1");
        std::ofstream(state_path, std::ios::binary) << negative << "checksum " << train::text_hash(negative) << "\n";
        refused("entry 'weak_learners' -1 is out of range");
        std::ofstream(state_path, std::ios::binary) << state;
        // The model edited: another first threshold.
        Model model = load_model(model_path);
        std::get<LbpCascade>(model.cascade).stages[0].threshold += 0.25f;
        save_model(model, model_path);
        refused("its model " + model_path + " is not the one it was written with");
        std::get<LbpCascade>(model.cascade).stages[0].threshold -= 0.25f;
        save_model(model, model_path);
    }
    SUBCASE("a resume under other settings is refused, naming the setting") {
        LbpTrainConfig other = config;
        other.alpha = 0.1;
        Quiet q;
        try {
            train_lbp(other, s.training, q);
            FAIL("resumed under other settings");
        } catch (const InputError& e) {
            CHECK(std::string(e.what()).find("written under other settings: alpha 0.05") != std::string::npos);
        }
    }
}

TEST_CASE("with --accept, stages accept early by the detector's rule, and a resumed run reproduces an uninterrupted one") {
    const auto data = cascade::test::shared_data_dir();
    if (!data) return;
    const Subset s = subset(*data, 50, 0, 30, 0);
    cascade::test::ScratchDir dir("accept");
    LbpTrainConfig config = small_config();
    config.accept = true;
    config.weak_learners = 14;
    config.checkpoint_every = 5;
    config.checkpoint = dir.file("uninterrupted.checkpoint");
    Quiet quiet;
    const LbpCascade uninterrupted = train_lbp(config, s.training, quiet).cascade;
    REQUIRE(uninterrupted.stages.size() == 14);
    validate(uninterrupted, "trained with --accept");  // an acceptance threshold lies above its rejection threshold
    int accepting = 0;
    for (std::size_t t = 0; t + 1 < uninterrupted.stages.size(); ++t)
        accepting += std::isfinite(uninterrupted.stages[t].accept) ? 1 : 0;
    CHECK(accepting == 13);                                   // every stage but the last
    CHECK(std::isinf(uninterrupted.stages.back().accept));   // the last decides every window anyway

    // Acceptance is used: some training positives are accepted before the last stage, by run_stages.
    const LbpCascadeView view = view_of(uninterrupted);
    int early = 0;
    for (const GrayImage& p : s.training.positives) {
        IntegralImage integral;
        compute_integral(p.view(), integral);
        const IntegralView sums = integral.view();
        double sum = 0.0;
        // Stages 0..12 only: run_stages returns num_stages (14) for a window one of them accepts.
        early += run_stages(view, LbpWindow<IntegralView>{view, sums, 0, 0}, 0, 13, sum) == 14 ? 1 : 0;
    }
    MESSAGE(early << " of " << s.training.positives.size() << " training positives accepted before the last stage");
    CHECK(early > 0);

    // The project's XML keeps the acceptance thresholds.
    save_model(Model{uninterrupted, "test"}, dir.file("model.xml"));
    CHECK(same(std::get<LbpCascade>(load_model(dir.file("model.xml")).cascade), uninterrupted));

    config.checkpoint = dir.file("interrupted.checkpoint");
    Interrupt killed;
    killed.after = 8;
    CHECK_THROWS_WITH(train_lbp(config, s.training, killed), "interrupted");
    config.resume = true;
    CHECK(same(train_lbp(config, s.training, quiet).cascade, uninterrupted));
}

TEST_CASE("the final histogram SVM: fewer held-out false positives than its WaldBoost prefix, the same on 1 and 2 threads") {
    const auto data = cascade::test::shared_data_dir();
    if (!data) return;
    const Subset s = subset(*data, 150, 100, 150, 40);
    LbpTrainConfig config = small_config();
    config.weak_learners = 10;
    config.alpha = 0.05;
    Quiet quiet;
    const LbpCascade prefix = train_lbp(config, s.training, quiet).cascade;
    HistogramSvmOptions options;
    // Under the sanitizers (tools/sanitize) one round of 400 negatives: the same code at a fifth of the work (the
    // full settings took 220 s there). The tenfold claim below is about the full settings: the plain build checks it.
    options.rounds = cascade::test::kSanitized ? 1 : 2;
    options.negatives = cascade::test::kSanitized ? 400 : 1000;
    std::vector<LbpCascade> models;
    for (int threads : {1, 2}) {
        options.threads = threads;
        models.push_back(prefix);
        train_histogram_svm(models.back(), s.training.positives, 0, s.training.negatives, options, [](const std::string&) {});
    }
    REQUIRE(models[0].final_svm);
    REQUIRE(models[1].final_svm);
    CHECK(models[0].final_svm->weights.size() == 7u * 15u * 59u);
    CHECK(models[0].final_svm->weights == models[1].final_svm->weights);
    CHECK(models[0].final_svm->bias == models[1].final_svm->bias);
    const double prefix_detection = window_detection_rate(prefix, s.heldout_positives, 0);
    const double detection = window_detection_rate(models[0], s.heldout_positives, 0);
    const NegativeScan prefix_scan = scan_negative_images(prefix, s.heldout_negatives, 1.2, 4, 0);
    const NegativeScan scan = scan_negative_images(models[0], s.heldout_negatives, 1.2, 4, 0);
    MESSAGE("held out: prefix detection " << prefix_detection << " at a false-positive rate of " << prefix_scan.rate()
                                          << "; with the SVM " << detection << " at " << scan.rate());
    // Measured (seed 1, 2026-11-28): the 10-learner prefix detects 0.906 at a false-positive rate of 0.465, with the
    // SVM 0.895 at 0.022. An SVM that learnt nothing (or the wrong sign) would keep the prefix's rate or reject
    // the crops; the positives here are window-sized (ring 0), as the held-out crops they are compared with.
    CHECK(detection >= 0.6);
    CHECK(scan.rate() * (cascade::test::kSanitized ? 1 : 10) < prefix_scan.rate());
}
