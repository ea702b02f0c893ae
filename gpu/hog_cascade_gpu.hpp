// The HoG family's cascade launch (host side; its window source and constant memory in hog_cascade_gpu.cu, the
// kernels in gpu/cascade_kernels.cuh). HoG windows read the level's 9 interleaved integral histograms
// (gpu/hog_layout.hpp) from global memory, through the read-only cache, with common/hog_eval.hpp's HogWindow.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <vector>

#include "common/model.hpp"
#include "gpu/cascade_target.hpp"
#include "gpu/detector_types.hpp"
#include "gpu/kernel_timer.hpp"

namespace cascade::gpu {

// Largest model the constant-memory tables hold (a Stage is 16 bytes, a HogWeak 240; 64 KB per module).
constexpr int kMaxHogGpuStages = 256;
constexpr int kMaxHogGpuWeaks = 255;

// Copies the stages and weak learners of `cascade` into the HoG kernels' constant memory (ordered on `stream`).
// Throws InputError when the cascade exceeds kMaxHogGpuStages / kMaxHogGpuWeaks.
void upload_hog_constants(const HogCascade& cascade, cudaStream_t stream);

// What the HoG kernels read besides the CascadeTarget.
struct HogPlanes {
    Size window;
    SumPolicy policy;
    const std::uint32_t* integrals;  // the interleaved integral histograms of every level
    const std::uint8_t* pixels;      // the stacked level images (gpu/hog_layout.hpp), `pitch` bytes per row
    int pitch;
    // The model has Dalal-Triggs blocks or LBP-histogram learners: kernels that read the level images' gradients
    // and LBP bins.
    bool reads_pixels;
};

// requires: as launch_cascade (gpu/cascade_kernels.cuh); the model uploaded by upload_hog_constants.
void run_hog_cascade(const HogPlanes& planes, const CascadeTarget& target, const std::vector<int>& group_ends,
                     Compaction compaction, cudaStream_t stream, KernelTimer& timer);

}  // namespace cascade::gpu
