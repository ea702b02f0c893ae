#include "gpu/pyramid_gpu.hpp"

#include <algorithm>
#include <cub/warp/warp_scan.cuh>

#include "gpu/cuda_check.hpp"
#include "gpu/level_lookup.cuh"
#include "gpu/samplers.cuh"

namespace cascade::gpu {

namespace {

constexpr int kRowWarps = 8;   // rows per block of the row pass
constexpr int kRowUnroll = 4;  // warp scans in flight per row
constexpr int kColumnWarps = 8;
constexpr int kResampleX = 32, kResampleY = 8;

// Pixel sources of the row pass: pixel (x, y) of level `l` (exact mode: gpu/samplers.cuh ExactLevelPixel).
struct CanvasPixels {
    const std::uint8_t* pixels;
    std::size_t pitch;
    __device__ std::uint32_t operator()(const GpuLevel& l, int x, int y) const {
        return pixels[(l.canvas_y + y) * pitch + l.canvas_x + x];
    }
};

// Row pass: row y + 1 of the level's integral gets the inclusive prefix sums of level row y, and with `also`
// row y + 1 of that table the prefix sums of the squared pixels. One warp per row, 32 * kRowUnroll pixels per
// step: independent warp scans of 32 consecutive pixels (coalesced loads and stores), then the running total
// carried from scan to scan. No block-wide synchronisation: short rows of small levels finish on their own.
template <class Pixels>
__global__ void __launch_bounds__(kRowWarps * 32) integral_rows_kernel(IntegralTarget t, Pixels pixels) {
    using WarpScan = cub::WarpScan<std::uint32_t>;
    __shared__ typename WarpScan::TempStorage scan[kRowWarps];
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int row = blockIdx.x * kRowWarps + warp;
    if (row >= t.rows) return;
    const GpuLevel l = t.levels[find_level(t.levels, t.num_levels, row, &GpuLevel::first_row)];
    const int y = row - l.first_row;
    const std::size_t first = l.integral_offset + static_cast<std::size_t>(y + 1) * l.integral_stride + 1;
    std::uint32_t* out = t.integrals + first;
    std::uint32_t carry = 0, carry_squares = 0;
    for (int x0 = 0; x0 < l.width; x0 += 32 * kRowUnroll) {
        std::uint32_t v[kRowUnroll], q[kRowUnroll];
#pragma unroll
        for (int i = 0; i < kRowUnroll; ++i) {
            const int x = x0 + i * 32 + lane;
            v[i] = x < l.width ? pixels(l, x, y) : 0u;
            q[i] = v[i] * v[i];
        }
#pragma unroll
        for (int i = 0; i < kRowUnroll; ++i) WarpScan(scan[warp]).InclusiveSum(v[i], v[i]);
        if (t.also) {  // uniform
#pragma unroll
            for (int i = 0; i < kRowUnroll; ++i) WarpScan(scan[warp]).InclusiveSum(q[i], q[i]);
        }
#pragma unroll
        for (int i = 0; i < kRowUnroll; ++i) {
            const int x = x0 + i * 32 + lane;
            v[i] += carry;
            carry = __shfl_sync(0xffffffffu, v[i], 31);
            if (x < l.width) out[x] = v[i];
            if (t.also) {
                q[i] += carry_squares;
                carry_squares = __shfl_sync(0xffffffffu, q[i], 31);
                if (x < l.width) t.also[first + x] = q[i];
            }
        }
    }
}

// Exact mode's level pixels (build_exact_levels' buffer) as the row pass reads them.
struct BufferPixels {
    const std::uint8_t* base;
    __device__ std::uint32_t operator()(const GpuLevel& l, int x, int y) const {
        return base[l.pixel_offset + static_cast<std::size_t>(y) * l.pixel_stride + x];
    }
};

// Level pixels alone: kResizeSplit blocks per kStripWidth columns of a level (the column pass's strips), a
// lane per column; the strip's rows are dealt out to the blocks' warps in turn. Each lane reads its column tap
// once; a warp's frame reads and byte stores stay within a few cache lines. Each row waits on two dependent
// loads (row tap, then frame), so the rows of a strip are spread over many warps: one block per strip took 51
// microseconds at 1080p. (Blocks of one row segment each, tens of thousands of them, were slower still: the
// launch of blocks, not the arithmetic, set the pace.)
constexpr int kResizeSplit = 4;  // 8 and 16 were no faster

__global__ void __launch_bounds__(kColumnWarps * 32) resize_levels_kernel(LevelPixelsTarget t, GrayView frame,
                                                                         const ResizeTap* taps_x,
                                                                         const ResizeTap* taps_y) {
    const GpuLevel l = t.levels[find_level(t.levels, t.num_levels, blockIdx.x, &GpuLevel::first_strip)];
    const int x = (blockIdx.x - l.first_strip) * kStripWidth + threadIdx.x % 32;
    if (x >= l.width) return;
    const ResizeTap tx = taps_x[l.taps_x + x];
    std::uint8_t* column = t.pixels + l.pixel_offset + x;
    constexpr int kRowStep = kResizeSplit * kColumnWarps;
#pragma unroll 4
    for (int y = blockIdx.y * kColumnWarps + threadIdx.x / 32; y < l.height; y += kRowStep)
        column[static_cast<std::size_t>(y) * l.pixel_stride] =
            resize_linear_exact_pixel(frame, tx, taps_y[l.taps_y + y]);
}

// Column pass over kStripWidth columns: 32-row tiles are loaded row by row (coalesced; the next tile's loads
// are issued before the current one is scanned), each column is scanned by one warp from shared memory
// (lane = row) and carried to the next tile, then stored row by row.
__global__ void __launch_bounds__(kColumnWarps * 32) integral_columns_kernel(IntegralTarget t) {
    static_assert(kStripWidth == 32 && kStripWidth % kColumnWarps == 0, "a warp scans a column of 32 rows");
    constexpr int kPerWarp = kStripWidth / kColumnWarps;
    using WarpScan = cub::WarpScan<std::uint32_t>;
    __shared__ std::uint32_t tile[32][kStripWidth + 1];
    __shared__ typename WarpScan::TempStorage scan[kColumnWarps];

    const GpuLevel l = t.levels[find_level(t.levels, t.num_levels, blockIdx.x, &GpuLevel::first_strip)];
    const int x = 1 + (blockIdx.x - l.first_strip) * kStripWidth + threadIdx.x % 32;
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    std::uint32_t* sums = (blockIdx.y == 0 ? t.integrals : t.also) + l.integral_offset;
    auto load = [&](int y0, std::uint32_t (&v)[kPerWarp]) {
#pragma unroll
        for (int r = 0; r < kPerWarp; ++r) {
            const int y = y0 + warp + r * kColumnWarps;
            v[r] = (y <= l.height && x <= l.width) ? sums[static_cast<std::size_t>(y) * l.integral_stride + x] : 0u;
        }
    };
    std::uint32_t carry[kPerWarp] = {};
    std::uint32_t next[kPerWarp];
    load(1, next);
    for (int y0 = 1; y0 <= l.height; y0 += 32) {
#pragma unroll
        for (int r = 0; r < kPerWarp; ++r) tile[warp + r * kColumnWarps][lane] = next[r];
        __syncthreads();
        if (y0 + 32 <= l.height) load(y0 + 32, next);
#pragma unroll
        for (int c = 0; c < kPerWarp; ++c) {
            const int column = warp + c * kColumnWarps;
            std::uint32_t v = tile[lane][column];
            WarpScan(scan[warp]).InclusiveSum(v, v);
            v += carry[c];
            tile[lane][column] = v;
            carry[c] = __shfl_sync(0xffffffffu, v, 31);
        }
        __syncthreads();
#pragma unroll
        for (int r = 0; r < kPerWarp; ++r) {
            const int row = warp + r * kColumnWarps, y = y0 + row;
            if (y <= l.height && x <= l.width) sums[static_cast<std::size_t>(y) * l.integral_stride + x] = tile[row][lane];
        }
        // No barrier: the next tile's writes go to exactly the elements this thread has just stored.
    }
}

// Texture mode: levels [first, first + count) of one octave into the canvas, each pixel one bilinear fetch at
// its centre mapped into the source (the frame, or the level one octave up on the canvas).
__global__ void resample_octave_kernel(const GpuLevel* levels, int first, cudaTextureObject_t frame_texture,
                                       Size frame, Canvas canvas) {
    const GpuLevel& l = levels[first + blockIdx.z];
    const int x = blockIdx.x * kResampleX + threadIdx.x, y = blockIdx.y * kResampleY + threadIdx.y;
    if (x >= l.width || y >= l.height) return;
    float u, v;
    cudaTextureObject_t source = frame_texture;
    if (l.source < 0) {
        u = (x + 0.5f) * (static_cast<float>(frame.width) / l.width);
        v = (y + 0.5f) * (static_cast<float>(frame.height) / l.height);
    } else {
        const GpuLevel& s = levels[l.source];
        u = s.canvas_x + (x + 0.5f) * (static_cast<float>(s.width) / l.width);
        v = s.canvas_y + (y + 0.5f) * (static_cast<float>(s.height) / l.height);
        source = canvas.texture;
    }
    const float p = tex2D<float>(source, u, v);
    canvas.pixels[(l.canvas_y + y) * canvas.pitch + l.canvas_x + x] = static_cast<std::uint8_t>(__float2int_rn(p * 255.f));
}

}  // namespace

void integral_columns(const IntegralTarget& t, cudaStream_t stream, KernelTimer& timer) {
    timer.begin("integral_columns", stream);
    integral_columns_kernel<<<dim3(t.strips, t.also ? 2 : 1), kColumnWarps * 32, 0, stream>>>(t);
    CASCADE_CUDA_CHECK(cudaGetLastError());
    timer.end(stream);
}

void integral_rows(const IntegralTarget& target, const std::uint8_t* level_pixels, cudaStream_t stream,
                   KernelTimer& timer) {
    timer.begin("integral_rows", stream);
    integral_rows_kernel<<<(target.rows + kRowWarps - 1) / kRowWarps, kRowWarps * 32, 0, stream>>>(
        target, BufferPixels{level_pixels});
    CASCADE_CUDA_CHECK(cudaGetLastError());
    timer.end(stream);
}

void build_exact_pyramid(const IntegralTarget& target, const GrayView& frame, const ResizeTap* taps_x,
                         const ResizeTap* taps_y, cudaStream_t stream, KernelTimer& timer) {
    if (target.num_levels == 0) return;
    timer.begin("resize_rows", stream);
    integral_rows_kernel<<<(target.rows + kRowWarps - 1) / kRowWarps, kRowWarps * 32, 0, stream>>>(
        target, ExactLevelPixel{frame, taps_x, taps_y});
    CASCADE_CUDA_CHECK(cudaGetLastError());
    timer.end(stream);
    integral_columns(target, stream, timer);
}

void build_exact_levels(const LevelPixelsTarget& target, const GrayView& frame, const ResizeTap* taps_x,
                        const ResizeTap* taps_y, cudaStream_t stream, KernelTimer& timer) {
    if (target.num_levels == 0) return;
    timer.begin("resize_levels", stream);
    resize_levels_kernel<<<dim3(target.strips, kResizeSplit), kColumnWarps * 32, 0, stream>>>(target, frame, taps_x,
                                                                                              taps_y);
    CASCADE_CUDA_CHECK(cudaGetLastError());
    timer.end(stream);
}

void build_texture_pyramid(const IntegralTarget& target, cudaTextureObject_t frame_texture, Size frame,
                           const Canvas& canvas, const std::vector<GpuLevel>& host_levels,
                           const std::vector<int>& octave_begin, cudaStream_t stream, KernelTimer& timer) {
    if (target.num_levels == 0) return;
    for (std::size_t o = 0; o + 1 < octave_begin.size(); ++o) {
        const int first = octave_begin[o], count = octave_begin[o + 1] - first;
        const GpuLevel& largest = host_levels[first];
        const dim3 grid((largest.width + kResampleX - 1) / kResampleX, (largest.height + kResampleY - 1) / kResampleY,
                        count);
        timer.begin("resample_octave", stream);
        resample_octave_kernel<<<grid, dim3(kResampleX, kResampleY), 0, stream>>>(target.levels, first, frame_texture,
                                                                                  frame, canvas);
        CASCADE_CUDA_CHECK(cudaGetLastError());
        timer.end(stream);
    }
    timer.begin("canvas_rows", stream);
    integral_rows_kernel<<<(target.rows + kRowWarps - 1) / kRowWarps, kRowWarps * 32, 0, stream>>>(
        target, CanvasPixels{canvas.pixels, canvas.pitch});
    CASCADE_CUDA_CHECK(cudaGetLastError());
    timer.end(stream);
    integral_columns(target, stream, timer);
}

}  // namespace cascade::gpu
