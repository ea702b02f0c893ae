// Building a frame's pyramid and integral images on the device (host launchers; kernels in pyramid_gpu.cu).
//
// build_exact_levels stops at the level images (exact mode's pixels, no integrals). Both modes of
// build_*_pyramid end with the same thing: for every level of the FrameLayout, its exclusive uint32 integral
// image at integral_offset (row 0 and column 0 must already be zero: the launchers write rows 1..height,
// columns 1..width). The integral is a row pass (one block per level row, cub::BlockScan) and a column pass
// (one block per 32 columns, tiles transposed through shared memory and scanned with cub::WarpScan).
//   - exact:   the row pass computes each level pixel with resize_linear_exact_pixel from the frame and the
//              level's taps, so the levels equal the CPU's resize_linear_exact bit for bit;
//   - texture: one launch per octave first writes the levels into the canvas by hardware bilinear fetches
//              (octave 0 from the frame's texture, later octaves from the canvas's texture at half size);
//              the row pass then reads the canvas.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <vector>

#include "common/image.hpp"
#include "common/resize_exact.hpp"
#include "gpu/frame_layout.hpp"
#include "gpu/kernel_timer.hpp"

namespace cascade::gpu {

struct IntegralTarget {
    const GpuLevel* levels;  // device copy of FrameLayout::gpu
    int num_levels;
    int rows, strips;        // FrameLayout::rows, ::strips
    std::uint32_t* integrals;
    // integral_rows and integral_columns only (null: none): the Haar squared integral, of the same layout.
    // The row pass writes the squared pixels' prefix sums there; the column pass scans it in the same launch
    // (twice the blocks fill the machine better than two launches).
    std::uint32_t* also = nullptr;
};

// The column pass alone: adds each column's running sum down rows 1..height of every level's table, for
// columns 1..width (GpuLevel::width, integral_stride, integral_offset, first_strip; one block per kStripWidth
// columns). Any uint32 matrix whose rows are already row-prefixed qualifies: the HoG detector passes its
// interleaved integral histograms as matrices of kHogBins * (width + 1) columns (gpu/hog_layout.hpp).
void integral_columns(const IntegralTarget& target, cudaStream_t stream, KernelTimer& timer);

// The row pass alone over exact mode's level pixels (build_exact_levels' buffer): row y + 1 of every level's
// table gets the prefix sums of level row y (and of its squares into `also`), columns 1..width.
void integral_rows(const IntegralTarget& target, const std::uint8_t* level_pixels, cudaStream_t stream,
                   KernelTimer& timer);

// frame: device memory. taps_x/taps_y: every level's taps, at GpuLevel::taps_x/taps_y.
void build_exact_pyramid(const IntegralTarget& target, const GrayView& frame, const ResizeTap* taps_x,
                         const ResizeTap* taps_y, cudaStream_t stream, KernelTimer& timer);

struct LevelPixelsTarget {
    const GpuLevel* levels;  // device copy of FrameLayout::gpu
    int num_levels;
    int strips;              // FrameLayout::strips
    std::uint8_t* pixels;    // FrameLayout::pixel_bytes; level l at pixel_offset, pixel_stride bytes per row
};

// Exact mode without integral images: every level's pixels, computed like build_exact_pyramid's, for a
// kernel that integrates the parts it reads itself (the shared-memory strategy's tiles, gpu/lbp_cascade_gpu.cu).
void build_exact_levels(const LevelPixelsTarget& target, const GrayView& frame, const ResizeTap* taps_x,
                        const ResizeTap* taps_y, cudaStream_t stream, KernelTimer& timer);

struct Canvas {
    std::uint8_t* pixels;  // pitched device memory of FrameLayout::canvas
    std::size_t pitch;
    cudaTextureObject_t texture;  // over `pixels`: normalised float reads, bilinear, clamped
};

// frame_texture: the frame (normalised float reads, bilinear, clamped); octave_begin: FrameLayout's.
void build_texture_pyramid(const IntegralTarget& target, cudaTextureObject_t frame_texture, Size frame,
                           const Canvas& canvas, const std::vector<GpuLevel>& host_levels,
                           const std::vector<int>& octave_begin, cudaStream_t stream, KernelTimer& timer);

}  // namespace cascade::gpu
