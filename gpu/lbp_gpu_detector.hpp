// The GPU LBP detector: the same raw windows as the CPU reference (common/lbp_cpu_detector.hpp), on CUDA; a
// thin instantiation of the detector core (gpu/detector_core.hpp) with the LBP window sources and planes.
//
// Per frame: the image pyramid and the integral images of every level, then the cascade over every window
// position with survivor compaction between groups of stages (gpu/gpu_detector.hpp for the contract).
//
// Pyramid modes:
//   - exact:   each level is the frame resized by the shared INTER_LINEAR_EXACT per-pixel function
//              (common/resize_exact.hpp), at the CPU's scales; raw windows and scores then EQUAL the CPU's
//              detect_windows for the same cascade and ScanParams, for every compaction strategy.
//   - texture: Macenauer's octave pyramid: levels 2^(k/n) apart (n = round(ln 2 / ln scale_factor) levels
//              per octave), the first octave sampled from the frame and each later octave from the previous
//              one at half size, by hardware bilinear texture fetches, all levels laid out in one canvas
//              texture; the cascade reads the integral images through a texture object. Results are close
//              to, not equal to, the CPU's (tests/gpu state the tolerance).
//
// Compaction strategies (see docs/gpu-design.md): none (one thread per window runs the whole cascade),
// global_atomic, shared_atomic (one kernel, per-block survivor lists in shared memory), hybrid (shared
// counter, one global atomic per block), prefix_sum (cub::BlockScan slots, one global atomic per block), and
// automatic (each strategy timed on the first frames, the fastest kept). The compaction points are given in
// weak learners and rounded up to stage boundaries.
#pragma once

#include <cstdint>
#include <vector>

#include "common/model.hpp"
#include "gpu/detector_types.hpp"
#include "gpu/gpu_detector.hpp"

namespace cascade::gpu {

struct LbpGpuOptions : GpuOptions {
    // Measured on OpenCV's frontal face cascade at 1080p (docs/benchmarks.md): after stages 1, 2, 3, 5, 7, 10
    // and 12 of 20 the shared-memory strategy is 6% faster than after the thesis's 1, 8, 64, 256, 512 (stages
    // 1, 3, 12).
    LbpGpuOptions() { compaction_points = {3, 7, 11, 20, 30, 45, 65}; }
    // Tuning (results do not depend on these):
    // Exact mode: block-local kernels read their integral tile from shared memory (the shared-memory strategy
    // integrates it from the level's pixels, and the pyramid then builds no integral images).
    bool integral_tiles = true;
    int shared_carveout = -1;  // percent of L1 given to shared memory in the shared-memory strategy; -1: driver's
    // Shared-memory strategy: once a block has at most this many survivors, one warp per survivor runs the
    // rest of the cascade (0: one thread per window to the end).
    int warp_tail = 8;
};

class LbpGpuDetector : public GpuDetector {
public:
    // requires: a validated cascade (common/model.hpp validate); `stumps` its stump tables
    //           (common/lbp_tables.hpp stump_tables, as a packed model carries them) or empty (the kernels
    //           then read the response tables); options.pyramid.scale_factor > 1, compaction points > 0 and
    //           increasing; a CUDA device.
    // ensures:  the model is on the device; throws InputError for a model the GPU tables cannot hold or bad
    //           options, CudaError when CUDA fails.
    LbpGpuDetector(const LbpCascade& cascade, const std::vector<std::uint32_t>& stumps, const LbpGpuOptions& options);
    // The same with the stump tables compiled here, as cascade-export does.
    LbpGpuDetector(const LbpCascade& cascade, const LbpGpuOptions& options);

    const LbpGpuOptions& options() const { return options_; }

private:
    LbpGpuOptions options_;
};

}  // namespace cascade::gpu
