// What a cascade launch over one frame works on, whatever the feature family: the frame's levels and window
// positions, the survivor lists and their counters (host side; the kernels are in gpu/cascade_kernels.cuh).
//
// The cascade's stages are cut into groups at `group_ends` (gpu/frame_layout.hpp group_ends()). Group 0 runs
// on every window position (one thread each); each later group runs on the survivors of the one before,
// compacted by the chosen strategy into one of two ping-pong lists of Survivor records. With OpenCV's scan
// rule (stride 0) the first group also records which positions stage 0 rejected; the detector core then works
// out which positions OpenCV's scan visits (gpu/skip_rule.hpp) and drops accepted windows at unvisited ones. A
// window's acceptance does not depend on whether it is visited, so this gives exactly the CPU's windows while
// keeping every group free of a grid-wide dependency.
#pragma once

#include <cstdint>

#include "common/model.hpp"
#include "gpu/frame_layout.hpp"
#include "gpu/survivor.hpp"

namespace cascade::gpu {

// Groups of stages (compaction points + 1) the kernels can hold: enough to compact after every stage of
// OpenCV's LBP cascades.
constexpr int kMaxGroups = 32;
// A window source's kFirstWarpGroup (gpu/cascade_kernels.cuh) when no group takes a warp per survivor.
constexpr int kNoWarpGroup = kMaxGroups;

struct CascadeTarget {
    const GpuLevel* levels;          // device copy of FrameLayout::gpu
    int num_levels;
    int tiles, shared_tiles;         // FrameLayout's
    int num_stages;
    SumPolicy policy;
    std::uint8_t* stage0_rejected;   // one byte per position; null unless OpenCV's scan rule
    Survivor* lists[2];              // each FrameLayout::positions records
    int* counts;                     // kMaxGroups + 1 counters, zeroed by the caller
};

// How a family's kernels are launched (gpu/cascade_kernels.cuh launch_cascade); results never depend on it.
struct KernelTuning {
    int first_group_bytes;   // dynamic shared memory of a first-group block (32 x 8 positions)
    int shared_tile_bytes;   // the same for the shared-memory strategy's 32 x 32 positions, beside its lists
    int carveout;            // percent of L1 the shared-memory strategy prefers as shared memory; -1: the driver's
    int warp_tail;           // shared-memory strategy: survivors per block below which a warp takes each window
};

}  // namespace cascade::gpu
