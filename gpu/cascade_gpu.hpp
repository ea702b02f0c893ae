// Running an LBP cascade over every window position of a frame's pyramid (host launchers; kernels in
// cascade_gpu.cu). The windows are evaluated by common/cascade_eval.hpp's run_stages and LbpWindow, the same
// code as the CPU reference; this file only decides which thread evaluates which window and stages.
//
// The cascade's stages are cut into groups at `group_ends` (gpu/frame_layout.hpp group_ends()). Group 0 runs
// on every window position (one thread each); each later group runs on the survivors of the one before,
// compacted by the chosen strategy into one of two ping-pong lists of Survivor records. With OpenCV's scan
// rule (stride 0) the first group also records which positions stage 0 rejected; a row scan then works out
// which positions OpenCV's scan visits (gpu/skip_rule.hpp), and accepted windows at unvisited positions are
// dropped at the end. A window's acceptance does not depend on whether it is visited, so this gives exactly
// the CPU's windows while keeping every group free of a grid-wide dependency.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <vector>

#include "common/lbp_eval.hpp"
#include "common/model.hpp"
#include "gpu/frame_layout.hpp"
#include "gpu/kernel_timer.hpp"
#include "gpu/lbp_gpu_detector.hpp"
#include "gpu/survivor.hpp"

namespace cascade::gpu {

// What constant memory holds: the stages and weak-learner records of one cascade.
constexpr int kMaxGpuStages = 2304;
constexpr int kMaxGpuWeaks = 2304;
// Groups of stages (compaction points + 1) the kernels can hold: enough to compact after every stage of
// OpenCV's LBP cascades.
constexpr int kMaxGroups = 32;

// Copies the stages and weak learners of `cascade` into constant memory (ordered on `stream`).
// Throws InputError when the cascade has more than kMaxGpuStages stages or kMaxGpuWeaks weak learners.
void upload_model_constants(const LbpCascade& cascade, cudaStream_t stream);

// Row pitch, in words, of every integral tile that a cascade launch copies into shared memory: the widest
// tile (kTileWidth positions max_step apart) fits; odd, so that 32 threads walking 32 rows side by side hit
// 32 different banks (gpu/samplers.cuh integrate_tile).
inline int tile_pitch(int max_step, Size window) { return ((kTileWidth - 1) * max_step + window.width + 1) | 1; }

// Words of shared memory an integral tile of kTileWidth x rows window positions takes (any level).
inline int tile_words(int rows, int max_step, Size window) {
    return tile_pitch(max_step, window) * ((rows - 1) * max_step + window.height + 1);
}

// Response tables with at most two values (OpenCV's LBP stumps: a 256-bit subset of codes and two leaves) as
// kStumpWords words each: the subset's 8 words (bit c set: code c takes the second leaf), then the two leaves'
// float bits. The kernels over integral tiles read these instead of the 256-float tables when every table of
// the model has at most two values: 40 bytes a weak learner stay in L1 where 1 KB tables (139 KB for OpenCV's
// frontal face cascade) did not (4% faster at 1080p, docs/benchmarks.md).
constexpr int kStumpWords = 10;
// Empty when some table holds more than two values (WaldBoost's real tables): the model runs on its tables.
std::vector<std::uint32_t> stump_tables(const LbpCascade& cascade);

// A weak learner as the kernels over integral tiles read it: its corner offsets (common/lbp_eval.hpp
// LbpSteps) for one tile pitch and where its responses are, in one 16-byte load.
struct alignas(16) TileWeak {
    LbpSteps steps;
    int table;  // stumps: its number (= its index); tables: LbpWeak::table * kLbpCodes
};

// The weak learners of `cascade` for tiles of row pitch `pitch`, reading stump_tables or the response tables.
std::vector<TileWeak> tile_weaks(const LbpCascade& cascade, bool stumps, int pitch);

struct CascadeTarget {
    Size window;
    SumPolicy policy;
    int num_stages;
    const float* responses;  // device copy of LbpCascade::responses
    const GpuLevel* levels;  // device copy of FrameLayout::gpu
    int num_levels;
    int tiles, shared_tiles, grid_rows;  // FrameLayout's
    int max_step;                        // FrameLayout's: sizes the integral tiles in shared memory
    bool integral_tiles;                 // LbpGpuOptions'
    const TileWeak* tile_weaks;          // tile_weaks(model, stumps != null, tile_pitch(max_step, window))
    const std::uint32_t* stumps;         // stump_tables(model) on the device; null: the model runs on its tables
    int shared_carveout;                 // LbpGpuOptions'; -1: leave the driver's choice
    int warp_tail;                       // LbpGpuOptions
    const std::uint32_t* integrals;
    const std::uint8_t* level_pixels;      // non-null: the shared-memory strategy integrates its tiles from these
                                           // (exact mode, build_exact_levels); integrals is then unused
    cudaTextureObject_t integral_texture;  // non-zero: read the integrals through it (texture mode)
    std::uint8_t* stage0_rejected;         // one byte per position; null unless OpenCV's scan rule
    std::uint8_t* visited;                 // likewise
    Survivor* lists[2];                    // each FrameLayout::positions records
    int* counts;                           // group_ends.size() + 1 counters, zeroed by the caller
    int survivor_blocks;                   // grid of the kernels that loop over survivor lists
};

struct CascadeResult {
    int list;     // which of target.lists holds the accepted windows
    int counter;  // which of target.counts holds their number
};

// Whether the shared-memory strategy can integrate its tiles from level pixels for these (the layout's
// largest step, the model's window and sum policy): its list and widest tile fit one block's shared memory.
bool shared_tiles_fit(int max_step, Size window, SumPolicy policy);

// requires: compaction is concrete (not automatic); level_pixels only with shared_atomic and shared_tiles_fit;
//           group_ends as group_ends() returns, at most kMaxGroups;
//           the model uploaded by upload_model_constants.
// ensures:  counts[g] = windows that passed every group up to g (none: only counts[last]); with OpenCV's rule
//           counts[group_ends.size()] = accepted windows at visited positions.
CascadeResult run_cascade(const CascadeTarget& target, const std::vector<int>& group_ends, Compaction compaction,
                          cudaStream_t stream, KernelTimer& timer);

}  // namespace cascade::gpu
