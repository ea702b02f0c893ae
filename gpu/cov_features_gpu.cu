#include "gpu/cov_features_gpu.hpp"

#include <limits>
#include <stdexcept>

#include "common/cov_features.hpp"
#include "gpu/cuda_check.hpp"
#include "gpu/level_lookup.cuh"

namespace cascade::gpu {

CovFrameLayout make_cov_layout(Size frame, Size window, const PyramidParams& params, const ScanRule& rule) {
    CovFrameLayout out;
    out.hog = make_hog_layout(frame, window, params, rule);
    long long corners = 0, rows = 0, strips = 0;
    for (GpuLevel& g : out.hog.base.gpu) {
        const int columns = g.width / kCovGrid + 1, corner_rows = g.height / kCovGrid + 1;
        g.integral_offset = static_cast<int>(corners);
        g.integral_stride = columns;
        GpuLevel p = g;
        p.first_row = static_cast<int>(rows);
        p.first_strip = static_cast<int>(strips);
        out.passes.push_back(p);
        corners += static_cast<long long>(columns) * corner_rows;
        rows += corner_rows - 1;
        strips += (static_cast<long long>(columns) * kCovPlanes + kCovPassThreads - 1) / kCovPassThreads;
        if (corners > std::numeric_limits<int>::max()) throw std::length_error("frame too large: covariance integrals");
    }
    out.corners = corners;
    out.row_blocks = static_cast<int>(rows);
    out.strip_blocks = static_cast<int>(strips);
    return out;
}

namespace {

__device__ __forceinline__ std::int64_t* level_corners(const CovFeatureTarget& t, const GpuLevel& l) {
    return t.integrals + static_cast<std::size_t>(l.integral_offset) * kCovPlanes;
}

// One block per row of cells, kCovCellThreads cells at a time (one thread each: the sums of its kCovGrid x
// kCovGrid pixels), staged in shared memory; a thread per plane then adds them along the row (from the running
// sums of the cells before) and the block writes the corners below the cells word after word (a thread writing its
// own 44 words, 352 bytes from its neighbours', touched four times the bytes in every store). So the corner rows
// hold their running sums along the row when written, without a row pass over them.
__global__ void __launch_bounds__(kCovCellThreads) cell_row_kernel(CovFeatureTarget t) {
    constexpr int kPitch = kCovPlanes + 1;  // odd: 16 lanes' staged cells start in 16 different bank pairs
    __shared__ std::int64_t staged[kCovCellThreads * kPitch];
    const int li = find_level(t.passes, t.num_levels, blockIdx.x, &GpuLevel::first_row);
    const GpuLevel l = t.levels[li];
    const int cells_x = l.integral_stride - 1, cy = blockIdx.x - t.passes[li].first_row;
    // first_row of the frame layout: the level's first row in the stacked images.
    const GrayView image{t.pixels + static_cast<std::size_t>(l.first_row) * t.pitch, l.width, l.height, t.pitch};
    std::int64_t* corners = level_corners(t, l) + (static_cast<std::size_t>(cy + 1) * l.integral_stride + 1) * kCovPlanes;
    std::int64_t carry = 0;  // plane threadIdx.x's sum over the cells before the chunk
    for (int first = 0; first < cells_x; first += kCovCellThreads) {
        const int count = min(kCovCellThreads, cells_x - first);
        if (static_cast<int>(threadIdx.x) < count) {
            const int cx = first + static_cast<int>(threadIdx.x);
            std::int64_t sums[kCovPlanes] = {};
            int f[kCovFeatures];
            for (int dy = 0; dy < kCovGrid; ++dy)
                for (int dx = 0; dx < kCovGrid; ++dx) {
                    cov_pixel_features(image, cx * kCovGrid + dx, cy * kCovGrid + dy, f);
                    add_cov_pixel(f, sums);
                }
#pragma unroll
            for (int k = 0; k < kCovPlanes; ++k) staged[threadIdx.x * kPitch + k] = sums[k];
        }
        __syncthreads();
        if (threadIdx.x < kCovPlanes)
            for (int c = 0; c < count; ++c) staged[c * kPitch + threadIdx.x] = carry += staged[c * kPitch + threadIdx.x];
        __syncthreads();
        for (int w = threadIdx.x; w < count * kCovPlanes; w += kCovCellThreads)
            corners[static_cast<std::size_t>(first) * kCovPlanes + w] = staged[(w / kCovPlanes) * kPitch + w % kCovPlanes];
        __syncthreads();  // staged is refilled by the next chunk
    }
}

// Running sums over `count` words `step` words apart from p: kAhead loads at a time, all issued before the
// first is added, so that a thread waits for memory once per kAhead words instead of once per word.
__device__ __forceinline__ void running_sums(std::int64_t* p, std::size_t step, int count) {
    constexpr int kAhead = 8;
    std::int64_t sum = 0;
    for (int first = 0; first < count; first += kAhead) {
        std::int64_t v[kAhead];
#pragma unroll
        for (int k = 0; k < kAhead; ++k) v[k] = first + k < count ? p[(first + k) * step] : 0;
#pragma unroll
        for (int k = 0; k < kAhead; ++k)
            if (first + k < count) {
                sum += v[k];
                p[(first + k) * step] = sum;
            }
    }
}

// One thread per corner column and plane (consecutive threads: consecutive words): running sums down the column.
__global__ void __launch_bounds__(kCovPassThreads) column_kernel(CovFeatureTarget t) {
    const int li = find_level(t.passes, t.num_levels, blockIdx.x, &GpuLevel::first_strip);
    const GpuLevel l = t.levels[li];
    const int words = l.integral_stride * kCovPlanes;
    const int word = (blockIdx.x - t.passes[li].first_strip) * kCovPassThreads + threadIdx.x;
    if (word >= words) return;
    running_sums(level_corners(t, l) + words + word, words, l.height / kCovGrid);
}

__global__ void __launch_bounds__(kCovPassThreads) lbp_bin_kernel(CovFeatureTarget t, std::uint8_t* bins) {
    const GpuLevel l = t.levels[find_level(t.levels, t.num_levels, blockIdx.x, &GpuLevel::first_row)];
    const int y = blockIdx.x - l.first_row;
    if (y >= l.height) return;
    const GrayView image{t.pixels + static_cast<std::size_t>(l.first_row) * t.pitch, l.width, l.height, t.pitch};
    std::uint8_t* row = bins + static_cast<std::size_t>(blockIdx.x) * t.pitch;
    for (int x = threadIdx.x; x < l.width; x += kCovPassThreads)
        row[x] = static_cast<std::uint8_t>(lbp_uniform_bin(lbp_pixel_code(image, l.width, l.height, x, y)));
}

}  // namespace

void build_lbp_bins(const CovFeatureTarget& t, int rows, std::uint8_t* bins, cudaStream_t stream, KernelTimer& timer) {
    timer.begin("lbp_bins", stream);
    if (rows > 0) lbp_bin_kernel<<<rows, kCovPassThreads, 0, stream>>>(t, bins);
    CASCADE_CUDA_CHECK(cudaGetLastError());
    timer.end(stream);
}

void build_cov_integrals(const CovFeatureTarget& t, cudaStream_t stream, KernelTimer& timer) {
    timer.begin("cov_cells_rows", stream);
    if (t.row_blocks > 0) cell_row_kernel<<<t.row_blocks, kCovCellThreads, 0, stream>>>(t);
    CASCADE_CUDA_CHECK(cudaGetLastError());
    timer.end(stream);
    timer.begin("cov_columns", stream);
    if (t.strip_blocks > 0) column_kernel<<<t.strip_blocks, kCovPassThreads, 0, stream>>>(t);
    CASCADE_CUDA_CHECK(cudaGetLastError());
    timer.end(stream);
}

}  // namespace cascade::gpu
