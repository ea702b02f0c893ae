// The Haar family's cascade launch and planes (host side; the window source in haar_cascade_gpu.cu, the
// kernels in gpu/cascade_kernels.cuh). Haar windows read each level's integral, squared integral and tilted
// integral images from global memory with common/haar_eval.hpp's HaarWindow, one thread per window. The tilted
// table exists only for a cascade with tilted features. The model's arrays (stages, trees, nodes, leaves) live
// in global memory (the frontal-face cascades' nodes exceed constant memory), their first stages also in
// constant memory (HaarConstantPrefix).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <vector>

#include "common/model.hpp"
#include "gpu/cascade_target.hpp"
#include "gpu/detector_types.hpp"
#include "gpu/frame_layout.hpp"
#include "gpu/kernel_timer.hpp"

namespace cascade::gpu {

// What the Haar kernels read besides the CascadeTarget: device pointers.
struct HaarPlanes {
    Size window;
    SumPolicy policy;
    const Stage* stages;
    const HaarTree* weaks;
    const HaarNode* nodes;
    const float* leaves;
    // Every level's tables at GpuLevel::integral_offset, integral_stride elements a row (the layout's).
    // tilted: null when no feature of the cascade is tilted.
    const std::uint32_t *sums, *squares, *tilted;
    // Each window's variance factor at its origin in the tables' layout (integral_offset, integral_stride): the
    // first group writes them, later groups read their survivors' (common/haar_eval.hpp keep_factor).
    float* factors;
    bool exact_sums;  // common/haar_eval.hpp exact_stage_sums of the cascade
    int constant_stages;  // HaarConstantPrefix::stages of the cascade, uploaded by upload_haar_constants
};

// How much of a cascade constant memory holds: its first `stages` stages, whose trees, nodes and leaves are the
// first `trees`, `nodes` and `leaves` of the model's arrays (the most whole stages that fit the capacities below;
// 0 stages: none). Groups of stages within it that one thread per window evaluates read it there
// (haar_cascade_gpu.cu); frontalface_default: stages 0-9 (497 trees), where groups 0-2 end at tree 84.
constexpr int kHaarConstantStages = 64, kHaarConstantTrees = 512, kHaarConstantNodes = 640,
              kHaarConstantLeaves = 1152;  // 45 KB of the 64 KB
struct HaarConstantPrefix {
    int stages = 0, trees = 0, nodes = 0, leaves = 0;
};
HaarConstantPrefix haar_constant_prefix(const HaarCascade& cascade);

// Copies the prefix to the Haar kernels' constant memory, ordered on `stream`.
void upload_haar_constants(const HaarCascade& cascade, const HaarConstantPrefix& prefix, cudaStream_t stream);

// requires: as launch_cascade (gpu/cascade_kernels.cuh).
void run_haar_cascade(const HaarPlanes& planes, const CascadeTarget& target, const std::vector<int>& group_ends,
                      Compaction compaction, cudaStream_t stream, KernelTimer& timer);

struct HaarIntegralTarget {
    const GpuLevel* levels;  // device copy of FrameLayout::gpu
    int num_levels;
    int rows, strips;           // FrameLayout::rows, ::strips
    int max_width, max_height;  // of the largest level
    const std::uint8_t* pixels;  // the level pixels (build_exact_levels)
    std::uint32_t *sums, *squares, *tilted;  // tilted: null, not built, when no feature reads it
    // Without a tilted table: the column sums above each band of kBandRows rows, for sums and squares, each
    // laid out as the level pixels (band b of a level in its pixel row b), 2 * carry_plane words.
    std::uint32_t* carries;
    std::size_t carry_plane;  // FrameLayout::pixel_bytes
};

constexpr int kBandRows = 8;  // rows of a level that one block of the one-pass integral writes

// Every level's three tables, equal to common/haar_integrals.hpp's compute_haar_integrals of its pixels
// (haar_integrals_gpu.cu). With a tilted table: row prefix sums, the tilted integral by the CPU's diagonal
// recurrences (which read the row prefixes), then the column pass. Without: the column sums above each band,
// then each band's rows of both tables written once. Row 0 and column 0 of the tables must be zero.
void build_haar_integrals(const HaarIntegralTarget& target, cudaStream_t stream, KernelTimer& timer);

}  // namespace cascade::gpu
