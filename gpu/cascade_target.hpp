// What a cascade launch over one frame works on, whatever the feature family: the frame's levels and window
// positions, the survivor lists and their counters (host side; the kernels are in gpu/cascade_kernels.cuh).
//
// The cascade's stages are cut into groups at `group_ends` (gpu/frame_layout.hpp group_ends()). Group 0 runs
// on every window position (one thread each); each later group runs on the survivors of the one before,
// compacted by the chosen strategy into one of two ping-pong lists of Survivor records. With OpenCV's scan
// rule (stride 0) the first group also records which positions stage 0 rejected; from these the positions
// OpenCV's scan visits are worked out (gpu/skip_rule.hpp), and the windows at the others are dropped: by the
// second group where there is one (drops_unvisited_early below), else by the detector core among the accepted
// windows. A window's stages do not depend on whether it is visited, so this gives exactly the CPU's windows
// while keeping every group free of a grid-wide dependency.
#pragma once

#include <cstddef>
#include <cstdint>

#include "common/model.hpp"
#include "gpu/detector_types.hpp"
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
    std::uint8_t* visited;           // one byte per position, for gpu/skip_rule.hpp (with stage0_rejected)
    int grid_rows;                   // FrameLayout::grid_rows
    Survivor* lists[2];              // each FrameLayout::positions records
    int* counts;                     // kMaxGroups + 1 counters, zeroed by the caller
};

// Whether launch_cascade itself drops the windows at positions OpenCV's scan never visits (OpenCV's rule): a
// compacting strategy of two or more groups works out the visited positions once the first group has run
// (they depend on stage 0 alone) and the second group drops the first's survivors at the others, so that no
// later group evaluates a window that will be dropped (9% of frontalface_default's stage-1 windows at 1080p).
// Otherwise the caller drops them among the accepted windows.
inline bool drops_unvisited_early(Compaction compaction, std::size_t groups) {
    return groups > 1 && (compaction == Compaction::global_atomic || compaction == Compaction::hybrid ||
                          compaction == Compaction::prefix_sum);
}

// How a family's kernels are launched (gpu/cascade_kernels.cuh launch_cascade); results never depend on it.
struct KernelTuning {
    int first_group_bytes;   // dynamic shared memory of a first-group block (32 x 8 positions)
    int shared_tile_bytes;   // the same for the shared-memory strategy's 32 x 32 positions, beside its lists
    int carveout;            // percent of L1 the shared-memory strategy prefers as shared memory; -1: the driver's
    int warp_tail;           // shared-memory strategy: survivors per block below which a warp takes each window
};

}  // namespace cascade::gpu
