// Which pyramid level a block works on: kernels number their blocks over all levels in order, and GpuLevel
// records where each level's blocks start (one first_* member per kernel). Levels without blocks share
// their successor's start, so the last level whose start is <= block is the one that owns it.
#pragma once

#include "gpu/frame_layout.hpp"

namespace cascade::gpu {

__device__ __forceinline__ int find_level(const GpuLevel* levels, int num_levels, int block, int GpuLevel::*first) {
    int lo = 0, hi = num_levels;  // answer in [lo, hi)
    while (hi - lo > 1) {
        const int mid = (lo + hi) / 2;
        if (levels[mid].*first <= block)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

}  // namespace cascade::gpu
