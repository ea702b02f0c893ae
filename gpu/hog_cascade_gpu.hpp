// Running a HoG cascade over every window position of a frame's pyramid (host launchers; kernels in
// hog_cascade_gpu.cu). Windows are evaluated by common/cascade_eval.hpp's run_stages with common/hog_eval.hpp's
// HogWindow -- the CPU reference's code -- reading the interleaved integral histograms of gpu/hog_layout.hpp.
//
// Scheduling is the LBP detector's (gpu/cascade_gpu.hpp): stages cut into groups at `group_ends`; group 0 on
// every position (one thread each, 32 x 8 positions per block); later groups on the survivors of the one
// before, compacted by gpu/compaction.cuh's block compactors into ping-pong lists of Survivor records, or, in
// the shared-memory strategy, one block taking 32 x 32 positions through every group with its lists in shared
// memory. With OpenCV's scan rule (stride 0) stage-0 rejections are recorded and resolved by gpu/skip_rule.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <vector>

#include "common/model.hpp"
#include "gpu/cascade_gpu.hpp"  // CascadeResult, kMaxGroups
#include "gpu/frame_layout.hpp"
#include "gpu/kernel_timer.hpp"
#include "gpu/lbp_gpu_detector.hpp"
#include "gpu/survivor.hpp"

namespace cascade::gpu {

// Copies the stages and weak learners of `cascade` into constant memory (ordered on `stream`).
// Throws InputError when the cascade exceeds kMaxHogGpuStages / kMaxHogGpuWeaks (gpu/hog_gpu_detector.hpp).
void upload_hog_constants(const HogCascade& cascade, cudaStream_t stream);

struct HogCascadeTarget {
    Size window;
    SumPolicy policy;
    int num_stages;
    const GpuLevel* levels;  // device copy of HogFrameLayout::base.gpu
    int num_levels;
    int tiles, shared_tiles, grid_rows;  // FrameLayout's
    const std::uint32_t* integrals;      // the interleaved integral histograms
    std::uint8_t* stage0_rejected;       // one byte per position; null unless OpenCV's scan rule
    std::uint8_t* visited;               // likewise
    Survivor* lists[2];                  // each FrameLayout::positions records
    int* counts;                         // kMaxGroups + 1 counters, zeroed by the caller
    int survivor_blocks;                 // grid of the kernels that loop over survivor lists
};

// requires: compaction concrete; group_ends as group_ends() returns, at most kMaxGroups; the model uploaded by
//           upload_hog_constants.
// ensures:  counts[g] = windows that passed every group up to g (none: only counts[last]); with OpenCV's rule
//           counts[group_ends.size()] = accepted windows at visited positions.
CascadeResult run_hog_cascade(const HogCascadeTarget& target, const std::vector<int>& group_ends, Compaction compaction,
                              cudaStream_t stream, KernelTimer& timer);

}  // namespace cascade::gpu
