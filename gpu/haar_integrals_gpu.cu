// build_haar_integrals (gpu/haar_cascade_gpu.hpp): the three tables of every level.
//   1. rows: pyramid_gpu's row pass writes each level row's prefix sums R(k) of the pixels and of their squares
//      into row y + 1 of the sums and squares tables (a warp per row);
//   2. tilted (only for a cascade with tilted features), from those row prefixes, by the CPU's diagonal
//      recurrences (common/haar_integrals.cpp): one thread per anti-diagonal walks down the rows adding R_{y-1}(x)
//      (A), then one thread per diagonal subtracts B's running sum of R_{y-1}(x - 1); neighbouring threads read
//      neighbouring words of a row;
//   3. columns: pyramid_gpu's column pass turns the row-prefixed sums and squares into integral images (one
//      launch for both).
// Everything is uint32 arithmetic modulo 2^32, so the order of additions does not change a value.
#include "gpu/cuda_check.hpp"
#include "gpu/haar_cascade_gpu.hpp"
#include "gpu/level_lookup.cuh"
#include "gpu/pyramid_gpu.hpp"

namespace cascade::gpu {

namespace {

constexpr int kDiagonalThreads = 128;

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
    integral_rows({t.levels, t.num_levels, t.rows, t.strips, t.sums, t.squares}, t.pixels, stream, timer);
    if (t.tilted) {
        const dim3 grid((t.max_width + t.max_height + 1 + kDiagonalThreads - 1) / kDiagonalThreads, t.num_levels);
        timer.begin("haar_tilted", stream);
        haar_tilted_a_kernel<<<grid, kDiagonalThreads, 0, stream>>>(t);
        CASCADE_CUDA_CHECK(cudaGetLastError());
        haar_tilted_b_kernel<<<grid, kDiagonalThreads, 0, stream>>>(t);
        CASCADE_CUDA_CHECK(cudaGetLastError());
        timer.end(stream);
    }
    integral_columns({t.levels, t.num_levels, t.rows, t.strips, t.sums, t.squares}, stream, timer);
}

}  // namespace cascade::gpu
