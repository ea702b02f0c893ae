// The final SVM stage's bootstrapping (train/hog/final_svm.hpp), with either block descriptor and with HOG-LBP's
// cell histograms: a second round mines exactly the windows the first round's SVM accepts at its margin, and the
// SVM trained again on them rejects more of them.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "common/cascade_eval.hpp"
#include "common/hog_eval.hpp"
#include "data/holdout_split.hpp"
#include "data/image_files.hpp"
#include "data/positive_samples.hpp"
#include "tests/support/test_data.hpp"
#include "train/hog/final_svm.hpp"
#include "train/hog/hog_data.hpp"
#include "train/hog/hog_mining.hpp"

using namespace cascade;
using namespace cascade::train::hog;

namespace {

// A cascade of the one SVM stage, its threshold at `threshold`.
HogCascade svm_cascade(const FinalSvm& svm, float threshold) {
    HogCascade c;
    c.window = {64, 128};
    c.stages.push_back({0, static_cast<int>(svm.stage.weaks.size()), threshold});
    c.weaks = svm.stage.weaks;
    return c;
}

// The stage's sum of each window (per-stage sums: the SVM's w . x).
std::vector<double> stage_sums(const HogCascade& c, const WindowSet& windows) {
    const HogCascadeView view = view_of(c);
    std::vector<double> sums;
    for (int i = 0; i < windows.size(); ++i) {
        const HogSampler sampler = windows.view(i);
        double sum = 0.0;
        run_stages(view, HogWindow<HogSampler>{view, sampler, 0, 0}, 0, 1, sum);
        sums.push_back(sum);
    }
    return sums;
}

double fraction_at_least(const std::vector<double>& sums, double t) {
    int n = 0;
    for (double s : sums) n += s >= t ? 1 : 0;
    return static_cast<double>(n) / static_cast<double>(sums.size());
}

// A round of bootstrapping the SVM over `descriptor` blocks (and the LBP cells' histograms with `lbp`): the mined
// windows (cut out of their pyramid levels) evaluate as the miner evaluated them in the level, and retraining
// rejects more of them.
void check_bootstrapping(std::int32_t descriptor, bool lbp = false) {
    const auto data = test::shared_data_dir();
    if (!data) return;
    std::vector<data::PositiveSource> crops = data::find_positives(*data + "/inria/96X160H96/Train/pos");
    crops.resize(std::min<std::size_t>(crops.size(), 200));
    std::vector<std::string> images = data::list_images(*data + "/inria/Train/neg");
    images.resize(std::min<std::size_t>(images.size(), 40));
    const auto negatives = data::index_negative_images(images, {64, 128}, "negatives", 0);
    const WindowSet positives = load_positive_windows(crops, {64, 128}, data::Margin(16), 0);

    MiningOptions mining;
    mining.count = 600;
    mining.seed = 3;
    mining.lbp_bins = lbp;  // the empty cascade reads none: its windows keep them for the SVM
    WindowSet random(Size{64, 128});  // an empty cascade passes every window: random windows
    mine_negatives(HogCascade{{64, 128}}, negatives, 0, mining, random, [](int, int) {});
    REQUIRE(random.size() == 600);

    FinalSvmOptions options;
    options.min_hit_rate = 0.98;
    options.descriptor = descriptor;
    options.lbp_histograms = lbp;
    FinalSvmProblem problem({64, 128}, false, options);
    problem.add(positives, {}, 1);
    problem.add(random, {}, -1);
    const FinalSvm first = problem.train();
    REQUIRE(first.stage.weaks.size() == (lbp ? 105 + 64 : 105));  // two learners for each of 32 cells
    for (std::size_t i = 0; i < first.stage.weaks.size(); ++i) {
        const HogWeak& w = first.stage.weaks[i];
        CHECK(w.descriptor == (i < 105 ? descriptor : kHogDescriptorLbpHistogram));
        if (i >= 105) CHECK(w.first_bin == (i - 105) % 2 * 36);
    }
    CHECK(first.margin < first.stage.threshold);  // hinge margin -1 below a threshold keeping 98% of positives

    WindowSet hard(Size{64, 128});
    mining.count = 400;
    const MiningReport report = mine_negatives(svm_cascade(first, first.margin), negatives, 1, mining, hard, [](int, int) {});
    MESSAGE("round 2: " << hard.size() << " hard negatives of " << report.windows_scanned << " windows");
    REQUIRE(hard.size() >= 50);
    const HogCascade first_cascade = svm_cascade(first, first.stage.threshold);
    const std::vector<double> before = stage_sums(first_cascade, hard);
    CHECK(fraction_at_least(before, first.margin) == 1.0);  // every mined window is at or above the margin

    problem.add(hard, {}, -1);
    CHECK(problem.positives() == positives.size());
    CHECK(problem.negatives() == 600 + hard.size());
    const FinalSvm second = problem.train();
    const std::vector<double> after = stage_sums(svm_cascade(second, second.stage.threshold), hard);
    const double passed_before = fraction_at_least(before, first.stage.threshold);
    const double passed_after = fraction_at_least(after, second.stage.threshold);
    MESSAGE("hard negatives passing the stage: " << passed_before << " before, " << passed_after << " after");
    CHECK(passed_after < passed_before);
    // The threshold keeps ceil(0.98 P) of the positives, as the detector decides.
    CHECK(fraction_at_least(stage_sums(svm_cascade(second, second.stage.threshold), positives),
                            second.stage.threshold) == second.stage.hit_rate);
}

}  // namespace

TEST_CASE("a bootstrapping round mines the windows the SVM accepts at its margin, and retraining rejects them") {
    check_bootstrapping(kHogDescriptorIntegral);
}

TEST_CASE("the same with Dalal and Triggs' block descriptor") { check_bootstrapping(kHogDescriptorDalalTriggs); }

TEST_CASE("the same with HOG-LBP: gamma Dalal-Triggs blocks and the 16x16 cells' uniform-LBP histograms") {
    check_bootstrapping(kHogDescriptorDalalTriggsGamma, true);
}
