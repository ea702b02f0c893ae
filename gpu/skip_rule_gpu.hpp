// OpenCV's scan rule on the device (host launchers; kernels in skip_rule.cu). See gpu/skip_rule.hpp.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "gpu/frame_layout.hpp"
#include "gpu/kernel_timer.hpp"
#include "gpu/survivor.hpp"

namespace cascade::gpu {

struct SkipTarget {
    const GpuLevel* levels;
    int num_levels;
    int grid_rows;                        // FrameLayout::grid_rows
    const std::uint8_t* stage0_rejected;  // one byte per position, 1 = rejected by stage 0
    std::uint8_t* visited;                // one byte per position, written here
};

// visited = which positions OpenCV's scan visits, one block per row of positions.
void resolve_skips(const SkipTarget& t, cudaStream_t stream, KernelTimer& timer);

// Copies the records of `in` (length *in_count, known on the device) whose positions are visited to `out`,
// counting them in *out_count (zero before). `blocks`: the grid that loops over the list.
void filter_visited(const SkipTarget& t, const Survivor* in, const int* in_count, Survivor* out, int* out_count,
                    int blocks, cudaStream_t stream, KernelTimer& timer);

}  // namespace cascade::gpu
