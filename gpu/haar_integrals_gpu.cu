// build_haar_integrals (gpu/haar_cascade_gpu.hpp): the three tables of every level.
//   1. rows: pyramid_gpu's row pass writes each level row's prefix sums R(k) of the pixels and of their squares
//      into row y + 1 of the sums and squares tables (a warp per row);
//   2. tilted (only for a cascade with tilted features), from those row prefixes, by the CPU's diagonal
//      recurrences (common/haar_integrals.cpp): one thread per anti-diagonal walks down the rows adding R_{y-1}(x)
//      (A), then one thread per diagonal subtracts B's running sum of R_{y-1}(x - 1); neighbouring threads read
//      neighbouring words of a row;
//   3. columns: pyramid_gpu's column pass turns the row-prefixed sums and squares into integral images (one
//      launch for both).
// A cascade without tilted features needs no row prefixes of its own, so its two tables are written in one pass
// instead (rows, then columns read and wrote both tables again: 0.07 + 0.11 ms at 1080p):
//   1. column carries: for every band of kBandRows rows, each column's sum (and sum of squares) over the rows
//      above the band (a block per 32 columns of a level, from the pixels);
//   2. bands: a block per band; its first row's pixels plus the carries, then its other rows, are prefixed along
//      the row (a warp per row, the running total carried from chunk to chunk), and each column of the chunk is
//      summed down the band's rows: the integral's rows of the band, each element written once.
// Everything is uint32 arithmetic modulo 2^32, so the order of additions does not change a value.
#include <cub/warp/warp_scan.cuh>

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

constexpr int kBandThreads = kBandRows * 32;  // a warp per row of a band
constexpr int kLanePixels = 4;                 // consecutive pixels of a row per lane: one warp scan for 128
constexpr int kChunk = 32 * kLanePixels;       // columns of a band per step
static_assert(2 * kChunk == kBandThreads, "a thread per column of the chunk and table in the column step");
constexpr int kCarryGroup = 32;                // bands whose carries one step of the carry kernel computes

// Column carries of kStripWidth columns of a level (one block of kBandRows warps): carries[b][x] = the sum of
// column x over rows [0, kBandRows * b), and the same of the squares at carry_plane. Per step of kCarryGroup
// bands: each warp sums its bands' rows (a lane per column), a warp per column scans the bands' sums
// (exclusive, carried from step to step), then each warp writes whole rows of carries.
__global__ void __launch_bounds__(kBandThreads) haar_column_carries_kernel(HaarIntegralTarget t) {
    static_assert(kStripWidth == 32 && kCarryGroup % kBandRows == 0, "a lane per column, whole rounds of warps");
    constexpr int kPerWarp = kCarryGroup / kBandRows;
    using WarpScan = cub::WarpScan<std::uint32_t>;
    __shared__ std::uint32_t part[2][kCarryGroup][kStripWidth + 1];
    __shared__ typename WarpScan::TempStorage scan[kBandRows];
    const GpuLevel l = t.levels[find_level(t.levels, t.num_levels, blockIdx.x, &GpuLevel::first_strip)];
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int x = (blockIdx.x - l.first_strip) * kStripWidth + lane;
    const std::uint8_t* column = t.pixels + l.pixel_offset + x;
    const int bands = (l.height + kBandRows - 1) / kBandRows;
    std::uint32_t carry[2][kPerWarp] = {};  // of the columns warp + kBandRows * j
    for (int b0 = 0; b0 < bands; b0 += kCarryGroup) {
#pragma unroll
        for (int k = 0; k < kPerWarp; ++k) {
            const int b = warp + k * kBandRows;
            std::uint32_t s = 0, q = 0;
#pragma unroll
            for (int r = 0; r < kBandRows; ++r) {
                const int y = (b0 + b) * kBandRows + r;
                const std::uint32_t p = (x < l.width && y < l.height) ? column[static_cast<long long>(y) * l.pixel_stride] : 0u;
                s += p;
                q += p * p;
            }
            part[0][b][lane] = s;
            part[1][b][lane] = q;
        }
        __syncthreads();
#pragma unroll
        for (int j = 0; j < kPerWarp; ++j) {
            const int c = warp + j * kBandRows;
#pragma unroll
            for (int table = 0; table < 2; ++table) {
                std::uint32_t v = part[table][lane][c], total;
                WarpScan(scan[warp]).ExclusiveSum(v, v, total);
                part[table][lane][c] = v + carry[table][j];
                carry[table][j] += total;
            }
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < kPerWarp; ++k) {
            const int b = warp + k * kBandRows;
            if (b0 + b >= bands || x >= l.width) continue;
            const std::size_t at = l.pixel_offset + static_cast<std::size_t>(b0 + b) * l.pixel_stride + x;
            t.carries[at] = part[0][b][lane];
            t.carries[t.carry_plane + at] = part[1][b][lane];
        }
        __syncthreads();
    }
}

// The level of a band block: level l's bands are blocks [first_row / kBandRows + l, ... + its bands), which
// never reaches the next level's first block; the blocks between are idle.
__device__ __forceinline__ int band_level(const GpuLevel* levels, int num_levels, int block) {
    int lo = 0, hi = num_levels;  // the last level whose first block is <= block, in [lo, hi)
    while (hi - lo > 1) {
        const int mid = (lo + hi) / 2;
        if (levels[mid].first_row / kBandRows + mid <= block)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

// Four consecutive words of a row (x multiple of 4; the row's storage reaches x + 3 when x < width), those at
// or past width as 0.
template <class T, class Vector>
__device__ __forceinline__ void load_four(const T* row, int x, int width, std::uint32_t (&v)[kLanePixels]) {
    Vector four{};
    if (x < width) four = *reinterpret_cast<const Vector*>(row + x);
    const T parts[kLanePixels] = {four.x, four.y, four.z, four.w};
#pragma unroll
    for (int k = 0; k < kLanePixels; ++k) v[k] = x + k < width ? static_cast<std::uint32_t>(parts[k]) : 0u;
}

// The inclusive prefix sums of a warp's row of 4 * 32 values (v: lane's 4 consecutive ones), plus `carry`, which
// becomes the row's running total: each lane adds its own 4, then one warp scan of the lanes' totals.
__device__ __forceinline__ void prefix_row(std::uint32_t (&v)[kLanePixels], std::uint32_t& carry,
                                           cub::WarpScan<std::uint32_t>::TempStorage& scan) {
#pragma unroll
    for (int k = 1; k < kLanePixels; ++k) v[k] += v[k - 1];
    std::uint32_t before, total;
    cub::WarpScan<std::uint32_t>(scan).ExclusiveSum(v[kLanePixels - 1], before, total);
#pragma unroll
    for (int k = 0; k < kLanePixels; ++k) v[k] += before + carry;
    carry += total;
}

// Rows [kBandRows * band + 1, ...] of a level's sums and squares tables, from its pixels and the column carries.
// Pixels and carries are read four to a lane (16-byte aligned: pixel_offset, pixel_stride and carry_plane are
// multiples of kPixelAlign), so a warp scans 128 columns at once.
__global__ void __launch_bounds__(kBandThreads) haar_bands_kernel(HaarIntegralTarget t) {
    static_assert(kPixelAlign % 16 == 0, "four carries are one aligned 16-byte load");
    using WarpScan = cub::WarpScan<std::uint32_t>;
    __shared__ __align__(16) std::uint32_t prefixed[2][kBandRows][kChunk];
    __shared__ typename WarpScan::TempStorage scan[kBandRows];
    const int li = band_level(t.levels, t.num_levels, blockIdx.x);
    const GpuLevel l = t.levels[li];
    const int y0 = (blockIdx.x - l.first_row / kBandRows - li) * kBandRows;
    if (y0 >= l.height) return;  // an idle block (uniform)
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int rows = min(kBandRows, l.height - y0);
    const std::uint8_t* row = t.pixels + l.pixel_offset + static_cast<std::size_t>(y0 + warp) * l.pixel_stride;
    // The band's first row adds the column sums above it: its prefixes are then the integral's row y0 + 1.
    const std::uint32_t* carries = t.carries + l.pixel_offset + static_cast<std::size_t>(y0 / kBandRows) * l.pixel_stride;
    // Column step: thread (table, c) sums column c of the chunk down the band into that table.
    const int table = threadIdx.x / kChunk, c = threadIdx.x % kChunk;
    std::uint32_t* out = (table == 0 ? t.sums : t.squares) + l.integral_offset +
                         static_cast<std::size_t>(y0 + 1) * l.integral_stride + 1;
    std::uint32_t carry = 0, carry_squares = 0;
    for (int x0 = 0; x0 < l.width; x0 += kChunk) {
        const int x = x0 + kLanePixels * lane;
        std::uint32_t v[kLanePixels], q[kLanePixels];
        load_four<std::uint8_t, uchar4>(row, x, warp < rows ? l.width : 0, v);
#pragma unroll
        for (int k = 0; k < kLanePixels; ++k) q[k] = v[k] * v[k];
        if (warp == 0) {
            std::uint32_t above[kLanePixels], above_squares[kLanePixels];
            load_four<std::uint32_t, uint4>(carries, x, l.width, above);
            load_four<std::uint32_t, uint4>(carries + t.carry_plane, x, l.width, above_squares);
#pragma unroll
            for (int k = 0; k < kLanePixels; ++k) {
                v[k] += above[k];
                q[k] += above_squares[k];
            }
        }
        prefix_row(v, carry, scan[warp]);
        prefix_row(q, carry_squares, scan[warp]);
        *reinterpret_cast<uint4*>(&prefixed[0][warp][kLanePixels * lane]) = make_uint4(v[0], v[1], v[2], v[3]);
        *reinterpret_cast<uint4*>(&prefixed[1][warp][kLanePixels * lane]) = make_uint4(q[0], q[1], q[2], q[3]);
        __syncthreads();
        std::uint32_t sum = 0;
        for (int r = 0; r < rows; ++r) {
            sum += prefixed[table][r][c];
            if (x0 + c < l.width) out[static_cast<std::size_t>(r) * l.integral_stride + x0 + c] = sum;
        }
        __syncthreads();
    }
}

}  // namespace

void build_haar_integrals(const HaarIntegralTarget& t, cudaStream_t stream, KernelTimer& timer) {
    if (t.num_levels == 0) return;
    if (!t.tilted) {
        timer.begin("haar_column_carries", stream);
        haar_column_carries_kernel<<<t.strips, kBandThreads, 0, stream>>>(t);
        CASCADE_CUDA_CHECK(cudaGetLastError());
        timer.end(stream);
        timer.begin("haar_bands", stream);
        haar_bands_kernel<<<(t.rows + kBandRows - 1) / kBandRows + t.num_levels, kBandThreads, 0, stream>>>(t);
        CASCADE_CUDA_CHECK(cudaGetLastError());
        timer.end(stream);
        return;
    }
    integral_rows({t.levels, t.num_levels, t.rows, t.strips, t.sums, t.squares}, t.pixels, stream, timer);
    const dim3 grid((t.max_width + t.max_height + 1 + kDiagonalThreads - 1) / kDiagonalThreads, t.num_levels);
    timer.begin("haar_tilted", stream);
    haar_tilted_a_kernel<<<grid, kDiagonalThreads, 0, stream>>>(t);
    CASCADE_CUDA_CHECK(cudaGetLastError());
    haar_tilted_b_kernel<<<grid, kDiagonalThreads, 0, stream>>>(t);
    CASCADE_CUDA_CHECK(cudaGetLastError());
    timer.end(stream);
    integral_columns({t.levels, t.num_levels, t.rows, t.strips, t.sums, t.squares}, stream, timer);
}

}  // namespace cascade::gpu
