// The int64 integral images of region covariance (common/covariance_features.hpp) on the GPU, equal to the CPU's
// (common/covariance_integrals.hpp) bit for bit: integer sums in any order are the same sums.
//
// The frame is cut into tiles of 256 columns x 32 rows, and the integral written once, tile by tile, with no pass
// reading it back (the output, 377 MB for a 2048x1152 colour frame, is what costs):
//   1. totals: per tile, each column's sums over the tile's rows, each row's sums over the tile's columns, and the
//      tile's sums, every plane (features computed from the pixels);
//   2. carries: exclusive running sums of those (down the bands, across the tiles): what lies above a tile's
//      columns, left of each of its rows, and above and left of its corner;
//   3. integrals: per tile, the features again, each row scanned across the tile (int32 warp shuffles: a tile
//      row's sums stay within 2^30; warps combined once per row through shared memory) plus its left carry, added to the integral row above (kept in shared memory, started
//      from the carries above) and stored as one contiguous run per row.
// The running sums of step 2 are one small kernel, run four times.
#pragma once

#include <cstdint>

#include "common/covariance_features.hpp"
#include "gpu/device_buffer.hpp"
#include "gpu/kernel_timer.hpp"

namespace cascade::gpu {

class CovarianceIntegralsGpu {
public:
    // build: the integral images of device planes (colour and grey in device memory; the colour plane itself as grey
    //   for one channel), ordered on `stream`, timed as "totals", "carries", "integrals".
    void build(const MatchPlanes& colour, const GrayView& grey, CovarianceLayout layout, cudaStream_t stream,
               KernelTimer& timer);

    // The integral images of the last build, in device memory.
    CovarianceIntegralView view() const { return {sums_.get(), width_ + 1, layout_}; }
    std::size_t elements() const { return static_cast<std::size_t>(width_ + 1) * (height_ + 1) * layout_.planes(); }

private:
    CovarianceLayout layout_;
    int width_ = 0, height_ = 0;
    DeviceBuffer<std::int64_t> sums_;
    DeviceBuffer<long long> carries_;  // the column, row and tile sums of step 1, then their running sums
};

}  // namespace cascade::gpu
