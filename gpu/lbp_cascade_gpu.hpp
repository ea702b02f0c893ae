// The LBP family's cascade launch (host side; its window sources and constant memory in lbp_cascade_gpu.cu,
// the kernels in gpu/cascade_kernels.cuh). LBP windows read integral images: the level's own (global memory or,
// in texture mode, a texture), or in exact mode a tile of it in shared memory that each block copies from it or
// integrates from the level's pixels, evaluated through common/lbp_tables.hpp's TileWindow.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <vector>

#include "common/lbp_tables.hpp"
#include "common/model.hpp"
#include "gpu/cascade_target.hpp"
#include "gpu/detector_types.hpp"
#include "gpu/frame_layout.hpp"
#include "gpu/kernel_timer.hpp"

namespace cascade::gpu {

// What constant memory holds: the stages and weak-learner records of one cascade.
constexpr int kMaxLbpGpuStages = 2304;
constexpr int kMaxLbpGpuWeaks = 2304;

// Copies the stages and weak learners of `cascade` into the LBP kernels' constant memory (ordered on `stream`).
// Throws InputError when the cascade has more than kMaxLbpGpuStages stages or kMaxLbpGpuWeaks weak learners.
void upload_lbp_constants(const LbpCascade& cascade, cudaStream_t stream);

// Row pitch, in words, of every integral tile that a cascade launch keeps in shared memory: the widest tile
// (kTileWidth positions max_step apart) fits; odd, so that 32 threads walking 32 rows side by side hit 32
// different banks (gpu/samplers.cuh integrate_tile).
inline int tile_pitch(int max_step, Size window) { return ((kTileWidth - 1) * max_step + window.width + 1) | 1; }

// Words of shared memory an integral tile of kTileWidth x rows window positions takes (any level).
inline int tile_words(int rows, int max_step, Size window) {
    return tile_pitch(max_step, window) * ((rows - 1) * max_step + window.height + 1);
}

// Whether the shared-memory strategy can keep integral tiles for these (the layout's largest step, the model's
// window and sum policy): its lists and widest tile fit one block's shared memory.
bool shared_tiles_fit(int max_step, Size window, SumPolicy policy);

// What the LBP kernels read besides the CascadeTarget: the model's tables and the frame's planes.
struct LbpPlanes {
    Size window;
    SumPolicy policy;
    const float* responses;        // device copy of LbpCascade::responses
    const TileWeak* tile_weaks;    // tile_weaks(model, stumps != null, tile_pitch(max_step, window))
    const std::uint32_t* stumps;   // the model's stump tables on the device; null: it runs on its tables
    int max_step;                  // FrameLayout's: sizes the integral tiles in shared memory
    bool integral_tiles;           // LbpGpuOptions'
    int shared_carveout;           // LbpGpuOptions'
    int warp_tail;                 // LbpGpuOptions'
    const std::uint32_t* integrals;
    const std::uint8_t* level_pixels;      // non-null: the shared-memory strategy integrates its tiles from these
                                           // (exact mode, build_exact_levels); integrals is then unused
    cudaTextureObject_t integral_texture;  // non-zero: read the integrals through it (texture mode)
};

// requires: level_pixels only with shared_atomic and shared_tiles_fit; the rest as launch_cascade
//           (gpu/cascade_kernels.cuh), the model uploaded by upload_lbp_constants.
void run_lbp_cascade(const LbpPlanes& planes, const CascadeTarget& target, const std::vector<int>& group_ends,
                     Compaction compaction, cudaStream_t stream, KernelTimer& timer);

}  // namespace cascade::gpu
