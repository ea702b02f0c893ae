// Device samplers of integral images (the Sampler contract of common/lbp_eval.hpp: at(x, y) -> uint32), and
// the per-frame sources that hand a level's sampler to a kernel.
//   - GlobalIntegral: read-only global memory through the non-coherent cache (__ldg); exact mode.
//   - TextureIntegral: tex1Dfetch on a texture object over the same buffer; texture mode.
//   - TileIntegral: the part of a level's integral that one block's windows read, copied into shared memory
//     by load_tile; exact mode's block-local kernels (a 32-wide row of windows reads 32 consecutive words:
//     one shared-memory wavefront, where unaligned global loads take two and scattered survivors up to 32).
// And what the level pixels are read from: ExactLevelPixel (exact mode's resize, pixel by pixel, from the frame),
// LevelPixels (the level-pixel buffer that integrate_tile turns into a tile).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "common/image.hpp"
#include "common/resize_exact.hpp"
#include "gpu/frame_layout.hpp"

namespace cascade::gpu {

struct GlobalIntegral {
    const std::uint32_t* data;
    int stride;
    __device__ __forceinline__ std::uint32_t at(int x, int y) const { return __ldg(data + y * stride + x); }
};

struct GlobalIntegrals {
    const std::uint32_t* base;
    __device__ __forceinline__ GlobalIntegral level(const GpuLevel& l) const {
        return {base + l.integral_offset, l.integral_stride};
    }
};

struct TextureIntegral {
    cudaTextureObject_t texture;
    int offset, stride;
    __device__ __forceinline__ std::uint32_t at(int x, int y) const {
        return tex1Dfetch<unsigned int>(texture, offset + y * stride + x);
    }
};

struct TextureIntegrals {
    cudaTextureObject_t texture;  // 1D, unsigned int elements, over the whole integral buffer
    __device__ __forceinline__ TextureIntegral level(const GpuLevel& l) const {
        return {texture, l.integral_offset, l.integral_stride};
    }
};

struct TileIntegral {
    const std::uint32_t* words;  // shared memory, `stride` words per row
    int stride, x0, y0;          // the tile's first column and row in level integral coordinates
    __device__ __forceinline__ std::uint32_t at(int x, int y) const { return *origin(x, y); }
    __device__ __forceinline__ const std::uint32_t* origin(int x, int y) const {
        return words + (y - y0) * stride + (x - x0);
    }
};

// Integral columns x0 .. x0 + width - 1 and rows y0 .. y0 + height - 1 of a level.
struct TileRegion {
    int x0, y0, width, height;
};

// What the windows at grid positions [gx0, gx0 + cols) x [gy0, gy0 + rows) of level `l` read (clipped to the
// level's grid): from each origin to origin + window size inclusive.
__device__ __forceinline__ TileRegion window_region(const GpuLevel& l, Size window, int gx0, int gy0, int cols,
                                                   int rows) {
    const int last_x = min(gx0 + cols, l.grid_width) - 1, last_y = min(gy0 + rows, l.grid_height) - 1;
    const int x0 = gx0 * l.step, y0 = gy0 * l.step;
    return {x0, y0, last_x * l.step + window.width + 1 - x0, last_y * l.step + window.height + 1 - y0};
}

// Copies `r` of `src` into `words`, rows `pitch` >= r.width words apart (each warp a row at a time, coalesced),
// and synchronises the block; every thread of the block calls it. One pitch for every tile of a launch lets
// the corner offsets of each weak learner be computed once per launch (common/lbp_tables.hpp TileWeak).
__device__ __forceinline__ TileIntegral load_tile(const GlobalIntegral& src, std::uint32_t* words, const TileRegion& r,
                                                  int pitch) {
    const int lane = threadIdx.x % 32, warps = blockDim.x / 32;
    for (int y = threadIdx.x / 32; y < r.height; y += warps)
        for (int x = lane; x < r.width; x += 32) words[y * pitch + x] = src.at(r.x0 + x, r.y0 + y);
    __syncthreads();
    return {words, pitch, r.x0, r.y0};
}

// Pixel (x, y) of level l of exact mode's pyramid, computed from the frame with the level's resize taps by the
// CPU's INTER_LINEAR_EXACT per-pixel function: what the LBP pyramid's row pass and the HoG resampling read.
struct ExactLevelPixel {
    GrayView frame;           // device memory
    const ResizeTap* taps_x;  // every level's taps, at GpuLevel::taps_x / taps_y
    const ResizeTap* taps_y;
    __device__ std::uint8_t operator()(const GpuLevel& l, int x, int y) const {
        return resize_linear_exact_pixel(frame, taps_x[l.taps_x + x], taps_y[l.taps_y + y]);
    }
};

// A level's pixels (exact mode's build_exact_levels, gpu/pyramid_gpu.hpp): what integrate_tile reads.
struct LevelPixels {
    const std::uint8_t* base;
    struct Level {
        const std::uint8_t* pixels;
        int stride;  // bytes per row (GpuLevel::pixel_stride)
    };
    __device__ __forceinline__ Level level(const GpuLevel& l) const { return {base + l.pixel_offset, l.pixel_stride}; }
};

// The integral tile of `r` built from the level's pixels instead of copied from its integral image: word (i, j)
// = the sum of pixels [r.x0, r.x0 + j) x [r.y0, r.y0 + i), so row 0 and column 0 are zero. That differs from
// the level's integral by terms that cancel in every rectangle sum (I(x, y) - I(x0, y) - I(x, y0) + I(x0, y0)),
// so the cascade reads the same cell sums, exactly. Two passes, one thread per line each: columns straight from
// the pixels (a warp reads 32 consecutive bytes of a row and writes 32 consecutive words), then rows in place.
// Every thread of the block calls it; it synchronises.
// requires: `pitch` odd (the row pass, one thread per row, then hits 32 banks).
__device__ __forceinline__ TileIntegral integrate_tile(const LevelPixels::Level& src, std::uint32_t* words,
                                                       const TileRegion& r, int pitch) {
    for (int j = threadIdx.x; j < r.width; j += blockDim.x) words[j] = 0;
    for (int i = threadIdx.x; i < r.height; i += blockDim.x) words[i * pitch] = 0;
    for (int j = threadIdx.x + 1; j < r.width; j += blockDim.x) {  // columns
        // Both addresses advanced by a row each step: indexing by row took a 64-bit multiply-add per pixel.
        const std::uint8_t* pixel = src.pixels + r.y0 * src.stride + r.x0 + j - 1;
        std::uint32_t* word = words + pitch + j;
        std::uint32_t sum = 0;
        for (int i = 1; i < r.height; ++i, pixel += src.stride, word += pitch) *word = sum += __ldg(pixel);
    }
    __syncthreads();
    for (int i = threadIdx.x + 1; i < r.height; i += blockDim.x) {  // rows
        std::uint32_t* row = words + i * pitch;
        std::uint32_t sum = 0;
        for (int j = 1; j < r.width; ++j) row[j] = sum += row[j];
    }
    __syncthreads();
    return {words, pitch, r.x0, r.y0};
}

}  // namespace cascade::gpu
