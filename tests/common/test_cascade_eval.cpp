// The shared window evaluation (common/cascade_eval.hpp): stage sums, rejection and WaldBoost's early
// acceptance, on hand-computed sums and through the CPU detector on a real frame.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <tuple>
#include <vector>

#include "common/cascade_eval.hpp"
#include "common/lbp_cpu_detector.hpp"
#include "common/model_io.hpp"
#include "tests/support/test_data.hpp"

using cascade::LbpCascade;
using cascade::Stage;
using cascade::SumPolicy;

namespace {

constexpr float kNone = std::numeric_limits<float>::infinity();

// A cascade view over stages only, and a window whose weak learner i responds responses[i].
struct StagesView {
    SumPolicy policy;
    int num_stages;
    const Stage* stages;
};

struct FixedResponses {
    std::vector<float> responses;
    float operator()(int i) const { return responses[static_cast<std::size_t>(i)]; }
};

int run(const std::vector<Stage>& stages, SumPolicy policy, const std::vector<float>& responses, double& score,
        int begin = 0, int end = -1) {
    const StagesView view{policy, static_cast<int>(stages.size()), stages.data()};
    return cascade::run_stages(view, FixedResponses{responses}, begin, end < 0 ? view.num_stages : end, score);
}

}  // namespace

TEST_CASE("run_stages: running sums, rejection and early acceptance on hand-computed sums") {
    // Running sums after each weak learner: 1, 2, -3.
    const std::vector<float> responses = {1.f, 1.f, -5.f};
    std::vector<Stage> stages = {{0, 1, -1.f, kNone}, {1, 1, -1.f, kNone}, {2, 1, -1.f, kNone}};
    double score = 0.0;
    CHECK(run(stages, SumPolicy::running, responses, score) == 2);  // -3 < -1: rejected by the last stage
    CHECK(score == -3.0);

    stages[1].accept = 1.5f;  // 2 >= 1.5: accepted after stage 1, the last weak learner never runs
    score = 0.0;
    CHECK(run(stages, SumPolicy::running, responses, score) == 3);
    CHECK(score == 2.0);

    stages[1].accept = 2.5f;  // not reached: the cascade runs on and rejects as before
    score = 0.0;
    CHECK(run(stages, SumPolicy::running, responses, score) == 2);

    // A rejection is checked before the acceptance of the same stage (validate keeps accept above it).
    stages[0] = {0, 1, 1.5f, 3.f};
    score = 0.0;
    CHECK(run(stages, SumPolicy::running, responses, score) == 0);

    // Split into groups as the GPU does: an acceptance inside the first group reports num_stages, not the
    // group's end, so the caller knows the window is decided.
    stages = {{0, 1, -1.f, kNone}, {1, 1, -1.f, 1.5f}, {2, 1, -1.f, kNone}};
    score = 0.0;
    CHECK(run(stages, SumPolicy::running, responses, score, 0, 2) == 3);
    CHECK(score == 2.0);
    stages[1].accept = kNone;
    score = 0.0;
    CHECK(run(stages, SumPolicy::running, responses, score, 0, 2) == 2);  // passes the group
    CHECK(run(stages, SumPolicy::running, responses, score, 2, 3) == 2);  // and the rest rejects it
}

TEST_CASE("run_stages: per-stage sums restart in each stage") {
    const std::vector<float> responses = {2.f, -1.f, 0.5f};
    const std::vector<Stage> stages = {{0, 2, 0.5f, kNone}, {2, 1, 0.25f, kNone}};
    double score = 0.0;
    CHECK(run(stages, SumPolicy::per_stage, responses, score) == 2);
    CHECK(score == 0.5);  // the last stage's own sum, not 1.5
}

// With an acceptance threshold a at stage k, the detector's windows are: those that the first k + 1 stages
// pass with a sum of at least a (accepted there, scored there), and the windows of the plain cascade that are
// not among them. Both sets come from the CPU detector on cascades without acceptance thresholds.
TEST_CASE("early acceptance through the CPU detector equals its construction from plain cascades") {
    const auto frames = cascade::test::real_images();
    const auto frame_it = std::find_if(frames.begin(), frames.end(),
                                       [](const auto& s) { return s.label.find("vtest") != std::string::npos; });
    if (frame_it == frames.end()) {
        MESSAGE("SKIP: no vtest.avi frame (opencv-doc)");
        return;
    }
    const cv::Mat gray = cascade::test::load_gray(*frame_it);
    const cascade::GrayView image{gray.data, gray.cols, gray.rows, static_cast<int>(gray.step)};
    LbpCascade plain = std::get<LbpCascade>(
        cascade::load_model(std::string(CASCADE_SOURCE_DIR) + "/models/pedestrian_lbp_64x128.xml").cascade);
    plain.final_svm.reset();  // its WaldBoost stages: the acceptance thresholds are theirs
    REQUIRE(plain.policy == SumPolicy::running);
    cascade::ScanParams params;
    params.pyramid.scale_factor = 1.2f;
    params.rule.stride = 4;
    const auto plain_windows = cascade::detect_windows(plain, image, params);

    const int k = static_cast<int>(plain.stages.size()) / 3;
    for (const float margin : {0.f, 1.f}) {
        INFO("stage " << k << ", acceptance threshold " << margin << " above its rejection threshold");
        LbpCascade accepting = plain;
        accepting.stages[static_cast<std::size_t>(k)].accept =
            std::nextafter(plain.stages[static_cast<std::size_t>(k)].threshold + margin, kNone);
        cascade::validate(accepting, "accepting");

        LbpCascade prefix = plain;  // stages 0..k, the last one rejecting below the acceptance threshold
        prefix.stages.resize(static_cast<std::size_t>(k) + 1);
        prefix.stages.back().threshold = accepting.stages[static_cast<std::size_t>(k)].accept;
        const auto accepted_at_k = cascade::detect_windows(prefix, image, params);

        using Key = std::tuple<int, int, int, int>;
        const auto key = [](const cascade::Detection& d) { return Key{d.rect.x, d.rect.y, d.rect.width, d.rect.height}; };
        std::map<Key, float> expected;
        for (const auto& d : plain_windows) expected[key(d)] = d.score;
        for (const auto& d : accepted_at_k) expected[key(d)] = d.score;  // accepted early: scored at stage k

        const auto got = cascade::detect_windows(accepting, image, params);
        std::map<Key, float> actual;
        for (const auto& d : got) actual[key(d)] = d.score;
        CHECK(actual == expected);
        MESSAGE(plain_windows.size() << " plain windows, " << accepted_at_k.size() << " accepted at stage " << k);
        if (margin == 0.f) CHECK(got.size() > plain_windows.size());  // acceptance really changed the result
    }
}
