// build_haar_integrals (gpu/haar_cascade_gpu.hpp): the three tables of every level.
//   1. rows: one block per level row writes the row's prefix sums R(k) of the pixels and of their squares into
//      row y + 1 of the sums and squares tables (cub::BlockScan, 256 pixels a step);
//   2. tilted (only for a cascade with tilted features), from those row prefixes, by the CPU's diagonal
//      recurrences (common/haar_integrals.cpp): one thread per anti-diagonal walks down the rows adding R_{y-1}(x)
//      (A), then one thread per diagonal subtracts B's running sum of R_{y-1}(x - 1); neighbouring threads read
//      neighbouring words of a row;
//   3. columns: pyramid_gpu's column pass turns the row-prefixed sums and squares into integral images.
// Everything is uint32 arithmetic modulo 2^32, so the order of additions does not change a value.
#include <cub/block/block_scan.cuh>

#include "gpu/cuda_check.hpp"
#include "gpu/haar_cascade_gpu.hpp"
#include "gpu/level_lookup.cuh"
#include "gpu/pyramid_gpu.hpp"

namespace cascade::gpu {

namespace {

constexpr int kRowThreads = 256;
constexpr int kDiagonalThreads = 128;

__global__ void __launch_bounds__(kRowThreads) haar_rows_kernel(HaarIntegralTarget t) {
    using Scan = cub::BlockScan<std::uint32_t, kRowThreads>;
    __shared__ typename Scan::TempStorage temp;
    const GpuLevel l = t.levels[find_level(t.levels, t.num_levels, blockIdx.x, &GpuLevel::first_row)];
    const int y = blockIdx.x - l.first_row;  // pixel row; table row y + 1
    const std::uint8_t* row = t.pixels + l.pixel_offset + static_cast<long long>(y) * l.pixel_stride;
    const long long out = l.integral_offset + static_cast<long long>(y + 1) * l.integral_stride + 1;
    std::uint32_t carry = 0, carry_sq = 0;
    for (int x0 = 0; x0 < l.width; x0 += kRowThreads) {
        const int x = x0 + threadIdx.x;
        const std::uint32_t p = x < l.width ? row[x] : 0u;
        std::uint32_t run, run_sq, total, total_sq;
        Scan(temp).InclusiveSum(p, run, total);
        __syncthreads();
        Scan(temp).InclusiveSum(p * p, run_sq, total_sq);
        __syncthreads();
        if (x < l.width) {
            t.sums[out + x] = carry + run;
            t.squares[out + x] = carry_sq + run_sq;
        }
        carry += total;
        carry_sq += total_sq;
    }
}

// R_{y-1}(x) of a level: the row-prefixed sums table's row y (column 0 is 0).
__device__ __forceinline__ std::uint32_t row_prefix(const HaarIntegralTarget& t, const GpuLevel& l, int x, int y) {
    return t.sums[l.integral_offset + static_cast<long long>(y) * l.integral_stride + x];
}

// A(x, y) = A(x + 1, y - 1) + R_{y-1}(x) along anti-diagonal c = x + y; past the right edge A is the sum of the
// rows above (T). Writes tilted(x, y) = A for 0 <= x <= width.
__global__ void __launch_bounds__(kDiagonalThreads) haar_tilted_a_kernel(HaarIntegralTarget t) {
    const GpuLevel l = t.levels[blockIdx.y];
    const int c = blockIdx.x * kDiagonalThreads + threadIdx.x;
    if (c > l.width + l.height) return;
    std::uint32_t a = 0, rows_above = 0;
    for (int y = 1; y <= l.height; ++y) {
        const int x = c - y;
        if (x < 0) break;
        rows_above += row_prefix(t, l, l.width, y);
        if (x > l.width) {
            a = rows_above;
            continue;
        }
        a += row_prefix(t, l, x, y);
        t.tilted[l.integral_offset + static_cast<long long>(y) * l.integral_stride + x] = a;
    }
}

// B(x, y) = B(x - 1, y - 1) + R_{y-1}(x - 1) along diagonal d = x - y, B = 0 for x <= 0; tilted -= B.
__global__ void __launch_bounds__(kDiagonalThreads) haar_tilted_b_kernel(HaarIntegralTarget t) {
    const GpuLevel l = t.levels[blockIdx.y];
    const int d = blockIdx.x * kDiagonalThreads + threadIdx.x - l.height;
    if (d >= l.width) return;
    std::uint32_t b = 0;
    for (int y = 1; y <= l.height; ++y) {
        const int x = d + y;
        if (x > l.width) break;
        if (x <= 0) continue;
        b += row_prefix(t, l, x - 1, y);
        t.tilted[l.integral_offset + static_cast<long long>(y) * l.integral_stride + x] -= b;
    }
}

}  // namespace

void build_haar_integrals(const HaarIntegralTarget& t, cudaStream_t stream, KernelTimer& timer) {
    if (t.num_levels == 0) return;
    timer.begin("haar_rows", stream);
    haar_rows_kernel<<<t.rows, kRowThreads, 0, stream>>>(t);
    CASCADE_CUDA_CHECK(cudaGetLastError());
    timer.end(stream);
    if (t.tilted) {
        const dim3 grid((t.max_width + t.max_height + 1 + kDiagonalThreads - 1) / kDiagonalThreads, t.num_levels);
        timer.begin("haar_tilted", stream);
        haar_tilted_a_kernel<<<grid, kDiagonalThreads, 0, stream>>>(t);
        CASCADE_CUDA_CHECK(cudaGetLastError());
        haar_tilted_b_kernel<<<grid, kDiagonalThreads, 0, stream>>>(t);
        CASCADE_CUDA_CHECK(cudaGetLastError());
        timer.end(stream);
    }
    integral_columns({t.levels, t.num_levels, t.rows, t.strips, t.sums}, stream, timer);
    integral_columns({t.levels, t.num_levels, t.rows, t.strips, t.squares}, stream, timer);
}

}  // namespace cascade::gpu
