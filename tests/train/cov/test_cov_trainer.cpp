// cascade-train cov on a subset of real INRIA crops and negative photographs: the model it writes is a
// covariance cascade whose every level keeps at least --min-hit-rate of the training positives that reach it
// (measured here with the detector's code, not read from the log), the same model on 1 and 2 threads, the
// same model after a run cut short and resumed from its checkpoint, more levels on a checkpoint's with the miner
// afresh at another pyramid scale (--mine-afresh), both weak learners, a final linear-SVM stage over rectangles
// and LBP cells after a checkpoint's first level (--levels below the checkpoint's, --final-negatives,
// --final-lbp-histograms); bad options in one line.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <memory>

#include "common/model_io.hpp"
#include "data/positive_samples.hpp"
#include "tests/support/sanitized.hpp"
#include "tests/support/test_data.hpp"
#include "tests/support/tool_run.hpp"
#include "train/cov/cov_samples.hpp"

namespace {

using namespace cascade;

struct Setup {
    test::TempDir dir{"cov-train"};
    std::string pos, neg;
    std::vector<std::string> args;
};

std::unique_ptr<Setup> setup() {
    const auto data = test::shared_data_dir();
    if (!data) return nullptr;
    auto owned = std::make_unique<Setup>();
    Setup& s = *owned;
    s.pos = test::list_of_first(*data + "/inria/96X160H96/Train/pos", 160, s.dir, "pos.lst");
    s.neg = test::list_of_first(*data + "/inria/Train/neg", 16, s.dir, "neg.lst");
    s.args = {"cov", "--pos", s.pos, "--neg", s.neg, "--holdout", "0", "--negatives", "300",
              "--rects-per-level", "40", "--rects-per-round", "20", "--mean-samples", "64", "--max-learners", "8",
              "--min-hit-rate", "0.99", "--max-false-alarm", "0.5"};
    return owned;
}

test::ToolResult run_training(const Setup& s, std::vector<std::string> extra, const std::string& output) {
    std::vector<std::string> args = s.args;
    args.insert(args.end(), extra.begin(), extra.end());
    args.push_back("--output");
    args.push_back(output);
    return test::run_tool(CASCADE_TRAIN_EXE, args);
}

// The fraction of the positives reaching each level that it keeps, by the detector's code.
std::vector<double> level_hit_rates(const CovCascade& cascade, const std::string& list) {
    std::vector<data::PositiveSource> crops = data::find_positives(list, data::GroupBy::name);
    const train::cov::CovSamples samples = train::cov::load_positive_samples(crops, cascade.window, {16, 16, 16, 16}, 2);
    std::vector<double> rates;
    int reaching = samples.size();
    for (std::size_t levels = 1; levels <= cascade.stages.size(); ++levels) {
        CovCascade cut = cascade;
        cut.stages.resize(levels);
        cut.weaks.resize(static_cast<std::size_t>(cut.stages.back().first + cut.stages.back().count));
        const std::vector<char> pass = train::cov::accepted(cut, samples, 2);
        const int kept = static_cast<int>(std::count(pass.begin(), pass.end(), 1));
        rates.push_back(static_cast<double>(kept) / reaching);
        reaching = kept;
    }
    return rates;
}

// Whether the first levels of `longer` are `shorter`'s levels, learner for learner.
bool starts_with_levels(const CovCascade& longer, const CovCascade& shorter) {
    if (longer.stages.size() < shorter.stages.size()) return false;
    for (std::size_t s = 0; s < shorter.stages.size(); ++s) {
        const Stage a = longer.stages[s], b = shorter.stages[s];
        if (a.first != b.first || a.count != b.count || a.threshold != b.threshold) return false;
    }
    for (std::size_t i = 0; i < shorter.weaks.size(); ++i) {
        const CovWeak &a = longer.weaks[i], &b = shorter.weaks[i];
        if (!(a.rect == b.rect) || a.bias != b.bias || std::memcmp(a.weights, b.weights, sizeof a.weights) != 0 ||
            std::memcmp(a.mean_isqrt, b.mean_isqrt, sizeof a.mean_isqrt) != 0)
            return false;
    }
    return true;
}

}  // namespace

TEST_CASE("cascade-train cov: levels keep their hit rate -- the same model on 1 and 2 threads and after a resume") {
    auto s = setup();
    if (!s) return;
    const test::ToolResult two = run_training(*s, {"--threads", "2", "--levels", "3"}, s->dir / "two.xml");
    INFO("stderr: " << two.err);
    REQUIRE(two.code == 0);
    CHECK(two.out.find("level 3: ") != std::string::npos);
    const Model model = load_model(s->dir / "two.xml");
    const auto* cov = std::get_if<CovCascade>(&model.cascade);
    REQUIRE(cov);
    CHECK(cov->stages.size() == 3);
    for (const CovWeak& w : cov->weaks) CHECK(w.mapping == kCovTangent);
    for (double rate : level_hit_rates(*cov, s->pos)) CHECK(rate >= 0.99);

    const test::ToolResult one = run_training(*s, {"--threads", "1", "--levels", "3"}, s->dir / "one.xml");
    REQUIRE(one.code == 0);
    CHECK(test::read_text(s->dir / "one.xml") == test::read_text(s->dir / "two.xml"));

    // Two levels with a checkpoint, then the third resumed from it.
    const std::string checkpoint = s->dir / "checkpoint";
    REQUIRE(run_training(*s, {"--threads", "2", "--checkpoint", checkpoint, "--levels", "2"}, s->dir / "short.xml").code == 0);
    const test::ToolResult resumed = run_training(*s, {"--threads", "2", "--checkpoint", checkpoint, "--resume", "--levels", "3"}, s->dir / "resumed.xml");
    INFO("resumed stderr: " << resumed.err);
    REQUIRE(resumed.code == 0);
    CHECK(resumed.out.find("resuming after level 2") != std::string::npos);
    CHECK(test::read_text(s->dir / "resumed.xml") == test::read_text(s->dir / "two.xml"));

    // A fourth level mined at another pyramid scale: refused as other settings without --mine-afresh, and
    // with it when a level's setting changes too; with it, the three levels kept and a fourth trained.
    const std::vector<std::string> finer = {"--threads", "2", "--checkpoint", checkpoint, "--resume", "--levels", "4",
                                            "--mine-scale", "1.1"};
    auto check_refused = [&](const test::ToolResult& r, const std::string& says) {
        INFO("stderr: " << r.err);
        CHECK(r.code == 1);
        REQUIRE(r.err_lines.size() == 1);
        CHECK(r.err_lines[0].rfind("cascade-train cov: error: " + checkpoint, 0) == 0);
        CHECK(r.err_lines[0].find(says) != std::string::npos);
        CHECK(!std::filesystem::exists(s->dir / "refused.xml"));
    };
    check_refused(run_training(*s, finer, s->dir / "refused.xml"), "resume needs the same");
    std::vector<std::string> other_bins = finer;
    other_bins.insert(other_bins.end(), {"--mine-afresh", "--bins", "4"});
    check_refused(run_training(*s, other_bins, s->dir / "refused.xml"), "--mine-afresh lets only the mining settings change");
    std::vector<std::string> afresh = finer;
    afresh.push_back("--mine-afresh");
    const test::ToolResult more = run_training(*s, afresh, s->dir / "four.xml");
    INFO("afresh stderr: " << more.err);
    REQUIRE(more.code == 0);
    CHECK(more.out.find("resuming after level 3 from " + checkpoint + ", the miner afresh") != std::string::npos);
    const Model four = load_model(s->dir / "four.xml");
    const auto* longer = std::get_if<CovCascade>(&four.cascade);
    REQUIRE(longer);
    CHECK(longer->stages.size() == 4);
    CHECK(starts_with_levels(*longer, *cov));
    for (double rate : level_hit_rates(*longer, s->pos)) CHECK(rate >= 0.99);
}

TEST_CASE("cascade-train cov --weak block-svm: a log-Euclidean cascade of binned SVM learners") {
    auto s = setup();
    if (!s) return;
    const test::ToolResult r =
        run_training(*s, {"--threads", "2", "--weak", "block-svm", "--mapping", "log-euclidean", "--levels", "2"}, s->dir / "svm.xml");
    INFO("stderr: " << r.err);
    REQUIRE(r.code == 0);
    const Model model = load_model(s->dir / "svm.xml");
    const auto* cov = std::get_if<CovCascade>(&model.cascade);
    REQUIRE(cov);
    for (const CovWeak& w : cov->weaks) {
        CHECK(w.mapping == kCovLogEuclidean);
        CHECK(w.num_cuts >= 1);
    }
    for (double rate : level_hit_rates(*cov, s->pos)) CHECK(rate >= 0.99);
}

TEST_CASE("cascade-train cov --final-negatives: an SVM stage of rectangles and LBP cells after the checkpoint's first level") {
    auto s = setup();
    if (!s) return;
    const std::string checkpoint = s->dir / "checkpoint";
    REQUIRE(run_training(*s, {"--threads", "2", "--checkpoint", checkpoint, "--levels", "2"}, s->dir / "two.xml").code == 0);
    const std::vector<std::string> final_stage = {"--checkpoint", checkpoint, "--resume", "--levels", "1",
                                                  "--final-negatives", "250", "--final-rounds", "2",
                                                  "--final-grids", "32/16", "--final-mine-scale", "1.1",
                                                  "--final-lbp-histograms"};
    std::vector<std::string> two_threads = final_stage;
    two_threads.insert(two_threads.end(), {"--threads", "2"});
    const test::ToolResult r = run_training(*s, two_threads, s->dir / "final.xml");
    INFO("stderr: " << r.err);
    REQUIRE(r.code == 0);
    CHECK(r.out.find("the checkpoint's levels cut to the first 1") != std::string::npos);
    CHECK(r.out.find("final stage (linear SVM) round 2: 21 rectangles, 32 LBP cells") != std::string::npos);
    const Model model = load_model(s->dir / "final.xml");
    const auto* cov = std::get_if<CovCascade>(&model.cascade);
    REQUIRE(cov);
    REQUIRE(cov->stages.size() == 2);
    const Model two = load_model(s->dir / "two.xml");
    CovCascade first = std::get<CovCascade>(two.cascade);
    first.stages.resize(1);
    first.weaks.resize(static_cast<std::size_t>(first.stages[0].count));
    CHECK(starts_with_levels(*cov, first));
    const Stage svm = cov->stages[1];
    // 32x32 rectangles every 16 pixels of 64x128: 3 x 7; then two learners for each of the 4 x 8 16x16 cells
    CHECK(svm.count == 21 + 2 * 32);
    for (int i = svm.first; i < svm.first + svm.count; ++i) {
        const CovWeak& w = cov->weaks[static_cast<std::size_t>(i)];
        CHECK(w.num_cuts == 0);
        CHECK(w.slope == 1.f);
        CHECK(w.bias == 0.f);
        const bool cell = i - svm.first >= 21;
        CHECK(w.descriptor == (cell ? kCovDescriptorLbpHistogram : kCovDescriptorCovariance));
        CHECK(w.rect.width == (cell ? 16 : 32));
        CHECK(w.first_bin == (cell ? (i - svm.first - 21) % 2 * 36 : 0));
    }
    for (double rate : level_hit_rates(*cov, s->pos)) CHECK(rate >= 0.99);  // the final stage's 0.99 too

    // The same final stage on one thread: left to the plain build under ASan (a third of this case's 110 s).
    if (test::kSanitized) return;
    std::vector<std::string> one_thread = final_stage;
    one_thread.insert(one_thread.end(), {"--threads", "1"});
    REQUIRE(run_training(*s, one_thread, s->dir / "final1.xml").code == 0);
    CHECK(test::read_text(s->dir / "final1.xml") == test::read_text(s->dir / "final.xml"));
}

TEST_CASE("cascade-train cov: bad options give one line") {
    auto s = setup();
    if (!s) return;
    const std::string out = s->dir / "bad.xml";
    test::check_error(run_training(*s, {"--weak", "adaboost"}, out), 2, "cascade-train cov", "--weak");
    test::check_error(run_training(*s, {"--mapping", "euclid"}, out), 2, "cascade-train cov", "--mapping");
    test::check_error(run_training(*s, {"--pos-margin", "2"}, out), 2, "cascade-train cov", "--pos-margin");
    test::check_error(run_training(*s, {"--bins", "1"}, out), 2, "cascade-train cov", "--bins");
    test::check_error(run_training(*s, {"--resume"}, out), 2, "cascade-train cov", "--resume");
    test::check_error(run_training(*s, {"--mine-afresh"}, out), 2, "cascade-train cov", "--mine-afresh");
    test::check_error(run_training(*s, {"--final-grids", "16/6"}, out), 2, "cascade-train cov", "--final-grids");
    test::check_error(run_training(*s, {"--final-grids", "16"}, out), 2, "cascade-train cov", "--final-grids");
    test::check_error(run_training(*s, {"--final-rounds", "0"}, out), 2, "cascade-train cov", "--final-rounds");
    test::check_error(run_training(*s, {"--final-lbp-histograms"}, out), 2, "cascade-train cov",
                      "--final-lbp-histograms");
    test::check_error(run_training(*s, {"--final-lbp-cells", "16/6"}, out), 2, "cascade-train cov",
                      "--final-lbp-cells");
    test::check_error(run_training(*s, {"--pos-margin", "20"}, out), 1, "cascade-train cov", "crop001001a");
    CHECK(!std::filesystem::exists(out));
}
