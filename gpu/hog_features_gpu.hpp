// The HoG detector's per-frame features on the device (host launchers; kernels in hog_features_gpu.cu), every
// pyramid level in each launch:
//   resample_exact / resample_texture  frame -> stacked level images
//   build_integral_histograms          level images -> the 9 interleaved integral histograms of every level: a
//                                      row pass (one warp per level row; each lane computes the votes of 4
//                                      consecutive pixels with common/hog_features.hpp's hog_pixel_vote, the
//                                      CPU's function; cub::WarpScan over 9-bin vectors; stores staged through
//                                      shared memory to be coalesced), then pyramid_gpu's column pass over
//                                      kHogBins * (w + 1) word columns.
// Sums are uint32 and wrap like the CPU's (common/hog_features.hpp), so any order of additions gives its bits.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "common/image.hpp"
#include "common/resize_exact.hpp"
#include "gpu/hog_layout.hpp"
#include "gpu/kernel_timer.hpp"

namespace cascade::gpu {

struct HogFeatureTarget {
    const GpuLevel* levels;       // device copy of HogFrameLayout::base.gpu
    const GpuLevel* word_levels;  // device copy of HogFrameLayout::words
    int num_levels;
    int rows;         // HogFrameLayout::base.rows
    int word_strips;  // HogFrameLayout::word_strips
    int max_width;    // the first (widest) level's width
    int pitch;        // HogFrameLayout::pitch
    std::uint8_t* pixels;     // rows x pitch
    std::uint32_t* integrals; // base.integral_elements words; row 0 and corner 0 of every table zeroed once
};

// frame: device memory; taps at GpuLevel::taps_x / taps_y (linear_exact_taps per level).
void resample_exact(const HogFeatureTarget& t, const GrayView& frame, const ResizeTap* taps_x, const ResizeTap* taps_y,
                    cudaStream_t stream, KernelTimer& timer);
// frame_texture: TextureObject::bilinear_u8 over the frame (gpu/texture.hpp).
void resample_texture(const HogFeatureTarget& t, cudaTextureObject_t frame_texture, Size frame, cudaStream_t stream,
                      KernelTimer& timer);
void build_integral_histograms(const HogFeatureTarget& t, cudaStream_t stream, KernelTimer& timer);

}  // namespace cascade::gpu
