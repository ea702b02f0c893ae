// The automatic compaction choice of the GPU detectors: each concrete strategy (concrete_compactions() order)
// runs `frames_each` frames, the first of each a warm-up; the strategy with the lowest median device time over
// the rest is kept. All strategies give the same windows, so the choice never shows in results.
#pragma once

#include <algorithm>
#include <limits>
#include <vector>

#include "gpu/detector_types.hpp"

namespace cascade::gpu {

class StrategyTrials {
public:
    // requires: frames_each >= 2.
    StrategyTrials(Compaction requested, int frames_each)
        : chosen_(requested), frames_each_(frames_each), ms_(concrete_compactions().size()) {}

    // The strategy for the next frame; settles on the fastest once every strategy has had its frames.
    Compaction next() {
        if (chosen_ != Compaction::automatic) return chosen_;
        const long long trial = frames_ / frames_each_;
        if (trial < static_cast<long long>(ms_.size())) return concrete_compactions()[static_cast<std::size_t>(trial)];
        std::size_t best = 0;
        for (std::size_t i = 1; i < ms_.size(); ++i)
            if (median(ms_[i]) < median(ms_[best])) best = i;
        chosen_ = concrete_compactions()[best];
        return chosen_;
    }

    // Records the device time of the frame next() was asked for.
    void record(float gpu_ms) {
        if (chosen_ == Compaction::automatic && frames_ % frames_each_ != 0)
            ms_[static_cast<std::size_t>(frames_ / frames_each_)].push_back(gpu_ms);
        ++frames_;
    }

    // The settled strategy, or automatic while still measuring.
    Compaction chosen() const { return chosen_; }

private:
    static float median(std::vector<float> v) {
        std::sort(v.begin(), v.end());
        return v.empty() ? std::numeric_limits<float>::infinity() : v[v.size() / 2];
    }

    Compaction chosen_;
    int frames_each_;
    long long frames_ = 0;
    std::vector<std::vector<float>> ms_;
};

}  // namespace cascade::gpu
