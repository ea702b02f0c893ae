// The automatic compaction choice of both GPU detectors (gpu/strategy_trials.hpp), without a GPU: which
// strategy each frame gets, and that the one with the lowest median of its timed frames is kept.
#include <doctest/doctest.h>

#include <vector>

#include "gpu/strategy_trials.hpp"

namespace {

using cascade::gpu::Compaction;
using cascade::gpu::StrategyTrials;
using cascade::gpu::concrete_compactions;

}  // namespace

TEST_CASE("a fixed strategy is used for every frame") {
    StrategyTrials trials(Compaction::hybrid, 3);
    for (int i = 0; i < 20; ++i) {
        CHECK(trials.next() == Compaction::hybrid);
        trials.record(1.f);
    }
    CHECK(trials.chosen() == Compaction::hybrid);
}

TEST_CASE("automatic: each strategy for its frames in turn, the first of each untimed, then the lowest median") {
    const int each = 3;
    StrategyTrials trials(Compaction::automatic, each);
    const auto& all = concrete_compactions();
    // Per strategy: a slow warm-up frame (ignored), then two timed frames. Strategy 3 has the lowest median
    // of its timed frames; strategy 1 the lowest single time (an outlier) and the lowest warm-up.
    const std::vector<std::vector<float>> ms = {
        {9.f, 5.f, 5.f}, {0.1f, 0.5f, 6.f}, {9.f, 4.f, 4.f}, {9.f, 2.f, 2.5f}, {9.f, 3.f, 3.f}};
    REQUIRE(ms.size() == all.size());
    for (std::size_t s = 0; s < all.size(); ++s)
        for (int f = 0; f < each; ++f) {
            CHECK(trials.chosen() == Compaction::automatic);
            CHECK(trials.next() == all[s]);
            trials.record(ms[s][static_cast<std::size_t>(f)]);
        }
    // Medians of the timed frames (the upper of two): 5, 6, 4, 2.5, 3.
    CHECK(trials.next() == all[3]);
    CHECK(trials.chosen() == all[3]);
    trials.record(100.f);  // later frames change nothing
    CHECK(trials.next() == all[3]);
}
