// The covariance detector's per-frame planes on the device (host side; kernels in cov_features_gpu.cu), every
// pyramid level in each launch: the level images as the HoG detector stacks them (gpu/hog_features_gpu.hpp's
// resample_exact / resample_texture), then the int64 integrals at the corners of the kCovGrid grid
// (common/cov_features.hpp's layout): a cell and row pass (a block per row of 4x4 cells, a thread per cell: its 16
// pixels' features by cov_pixel_features, the CPU's function, summed; then running sums of the cells along the
// row, written into the corners below them) and a column pass (one thread per corner column and plane, down the
// column). Integer sums in any order: the CPU's bits.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <vector>

#include "common/cov_features.hpp"
#include "gpu/hog_layout.hpp"
#include "gpu/kernel_timer.hpp"

namespace cascade::gpu {

// Blocks of the column pass: 256 threads; of the cell and row pass: 128 cells at a time (their sums staged in
// 45 KB of shared memory).
constexpr int kCovPassThreads = 256;
constexpr int kCovCellThreads = 128;

struct CovFrameLayout {
    // Levels, window positions and the stacked level images as the HoG detector lays them out, with each level's
    // integral_offset the index of its corner (0, 0) in the frame's corner buffer and integral_stride its corners
    // per row (width / kCovGrid + 1).
    HogFrameLayout hog;
    // The passes' block numbering per level (find_level): first_row (cell and row pass, one block per row of
    // cells), first_strip (column pass).
    std::vector<GpuLevel> passes;
    long long corners = 0;  // in the frame's buffer, kCovPlanes int64 each
    int row_blocks = 0, strip_blocks = 0;
};

// requires: as make_hog_layout; rule.stride a multiple of kCovGrid.
CovFrameLayout make_cov_layout(Size frame, Size window, const PyramidParams& params, const ScanRule& rule);

struct CovFeatureTarget {
    const GpuLevel* levels;  // device copy of CovFrameLayout::hog.base.gpu
    const GpuLevel* passes;  // device copy of CovFrameLayout::passes
    int num_levels;
    int row_blocks, strip_blocks;
    int pitch;                    // of the stacked level images
    const std::uint8_t* pixels;   // the stacked level images
    std::int64_t* integrals;      // corners x kCovPlanes; row 0 and column 0 of every level zeroed once
};

void build_cov_integrals(const CovFeatureTarget& t, cudaStream_t stream, KernelTimer& timer);

// The uniform-LBP bin of every pixel of every level (common/lbp_uniform.hpp's lbp_pixel_code and lbp_uniform_bin:
// the CPU's bin plane) into `bins`, stacked and pitched as t.pixels (first_row, t.pitch): one block per stacked
// row of `rows`. For a model with LBP-histogram learners, whose cells then read one byte a pixel.
void build_lbp_bins(const CovFeatureTarget& t, int rows, std::uint8_t* bins, cudaStream_t stream, KernelTimer& timer);

}  // namespace cascade::gpu
