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
    long long corners = 0, cells = 0, rows = 0, strips = 0;
    for (GpuLevel& g : out.hog.base.gpu) {
        const int columns = g.width / kCovGrid + 1, corner_rows = g.height / kCovGrid + 1;
        g.integral_offset = static_cast<int>(corners);
        g.integral_stride = columns;
        GpuLevel p = g;
        p.first_tile = static_cast<int>(cells);
        p.first_row = static_cast<int>(rows);
        p.first_strip = static_cast<int>(strips);
        out.passes.push_back(p);
        corners += static_cast<long long>(columns) * corner_rows;
        cells += (static_cast<long long>(columns - 1) * (corner_rows - 1) + kCovPassThreads - 1) / kCovPassThreads;
        rows += corner_rows - 1;
        strips += (static_cast<long long>(columns) * kCovPlanes + kCovPassThreads - 1) / kCovPassThreads;
        if (corners > std::numeric_limits<int>::max()) throw std::length_error("frame too large: covariance integrals");
    }
    out.corners = corners;
    out.cell_blocks = static_cast<int>(cells);
    out.row_blocks = static_cast<int>(rows);
    out.strip_blocks = static_cast<int>(strips);
    return out;
}

namespace {

__device__ __forceinline__ std::int64_t* level_corners(const CovFeatureTarget& t, const GpuLevel& l) {
    return t.integrals + static_cast<std::size_t>(l.integral_offset) * kCovPlanes;
}

// One thread per cell: the sums of its kCovGrid x kCovGrid pixels into its lower-right corner.
__global__ void __launch_bounds__(kCovPassThreads) cell_kernel(CovFeatureTarget t) {
    const int li = find_level(t.passes, t.num_levels, blockIdx.x, &GpuLevel::first_tile);
    const GpuLevel l = t.levels[li];
    const int columns = l.integral_stride, cells_x = columns - 1, cells_y = l.height / kCovGrid;
    const int cell = (blockIdx.x - t.passes[li].first_tile) * kCovPassThreads + threadIdx.x;
    if (cell >= cells_x * cells_y) return;
    const int cx = cell % cells_x, cy = cell / cells_x;
    // first_row of the frame layout: the level's first row in the stacked images.
    const GrayView image{t.pixels + static_cast<std::size_t>(l.first_row) * t.pitch, l.width, l.height, t.pitch};
    std::int64_t sums[kCovPlanes] = {};
    int f[kCovFeatures];
    for (int dy = 0; dy < kCovGrid; ++dy)
        for (int dx = 0; dx < kCovGrid; ++dx) {
            cov_pixel_features(image, cx * kCovGrid + dx, cy * kCovGrid + dy, f);
            add_cov_pixel(f, sums);
        }
    std::int64_t* out = level_corners(t, l) + (static_cast<std::size_t>(cy + 1) * columns + cx + 1) * kCovPlanes;
#pragma unroll
    for (int k = 0; k < kCovPlanes; ++k) out[k] = sums[k];
}

// One block per corner row after row 0, one thread per plane: running sums along the row.
__global__ void row_kernel(CovFeatureTarget t) {
    const int li = find_level(t.passes, t.num_levels, blockIdx.x, &GpuLevel::first_row);
    if (threadIdx.x >= kCovPlanes) return;
    const GpuLevel l = t.levels[li];
    const int row = blockIdx.x - t.passes[li].first_row + 1;
    std::int64_t* p = level_corners(t, l) + static_cast<std::size_t>(row) * l.integral_stride * kCovPlanes + threadIdx.x;
    std::int64_t sum = 0;
    for (int c = 1; c < l.integral_stride; ++c) {
        sum += p[c * kCovPlanes];
        p[c * kCovPlanes] = sum;
    }
}

// One thread per corner column and plane (consecutive threads: consecutive words): running sums down the column.
__global__ void __launch_bounds__(kCovPassThreads) column_kernel(CovFeatureTarget t) {
    const int li = find_level(t.passes, t.num_levels, blockIdx.x, &GpuLevel::first_strip);
    const GpuLevel l = t.levels[li];
    const int words = l.integral_stride * kCovPlanes;
    const int word = (blockIdx.x - t.passes[li].first_strip) * kCovPassThreads + threadIdx.x;
    if (word >= words) return;
    std::int64_t* p = level_corners(t, l) + word;
    std::int64_t sum = 0;
    for (int r = 1; r <= l.height / kCovGrid; ++r) {
        sum += p[static_cast<std::size_t>(r) * words];
        p[static_cast<std::size_t>(r) * words] = sum;
    }
}

}  // namespace

void build_cov_integrals(const CovFeatureTarget& t, cudaStream_t stream, KernelTimer& timer) {
    timer.begin("cov_cells", stream);
    if (t.cell_blocks > 0) cell_kernel<<<t.cell_blocks, kCovPassThreads, 0, stream>>>(t);
    CASCADE_CUDA_CHECK(cudaGetLastError());
    timer.end(stream);
    timer.begin("cov_rows", stream);
    if (t.row_blocks > 0) row_kernel<<<t.row_blocks, 64, 0, stream>>>(t);
    CASCADE_CUDA_CHECK(cudaGetLastError());
    timer.end(stream);
    timer.begin("cov_columns", stream);
    if (t.strip_blocks > 0) column_kernel<<<t.strip_blocks, kCovPassThreads, 0, stream>>>(t);
    CASCADE_CUDA_CHECK(cudaGetLastError());
    timer.end(stream);
}

}  // namespace cascade::gpu
