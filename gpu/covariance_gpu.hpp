// Region covariance search on the GPU (common/covariance_features.hpp): a frame's features and int64 integral
// images, then the distance of every window of each size, `step` pixels apart, to a target covariance.
// CUDA and common/ only.
//
// Integral images: a row pass (one block per row: each thread computes its pixel's features with common/'s
// pixel_features, cub::BlockScan sums every plane along the row) and a column pass (one thread per row element,
// running sums down the columns, coalesced over the interleaved planes); integers, so they equal the CPU's
// exactly. Windows: one thread per window, common/'s window_distance (covariance, Cholesky, Jacobi), so the
// distances equal the CPU reference's up to the device's log and sqrt (double, within an ulp or two).
#pragma once

#include <cstdint>
#include <vector>

#include "common/covariance_features.hpp"
#include "common/geometry.hpp"
#include "gpu/device_buffer.hpp"
#include "gpu/kernel_timer.hpp"
#include "gpu/template_match_gpu.hpp"

namespace cascade::gpu {

class CovarianceMatcherGpu {
public:
    // target: a regularised covariance of the layout's dimension (row-major).
    CovarianceMatcherGpu(CovarianceLayout layout, const std::vector<double>& target, CovMetric metric);

    // search: requires colour.channels == layout.channels, grey of the same size (the colour plane itself in
    //   grey), every window within the frame with 2 to 2^20 pixels, frames up to 4096x4096. One map per window.
    std::vector<ScoreMap> search(const MatchPlanes& colour, const GrayView& grey, const std::vector<Size>& windows,
                                    int step);

    // The integral images of the last search (host copy), as common/covariance_integrals.hpp lays them out.
    std::vector<std::int64_t> integrals() const;

    // Kernel times of the last search, after it returned: rows, columns, windows (one entry per window size).
    std::vector<KernelTime> times() const { return timer_.collect(); }
    void time_kernels(bool on) { timing_ = on; }

private:
    Stream stream_;
    CovarianceLayout layout_;
    CovMetric metric_;
    bool timing_ = false;
    KernelTimer timer_;
    int width_ = 0, height_ = 0;
    DeviceBuffer<double> target_;
    DeviceBuffer<std::uint8_t> pixels_;  // the colour planes, then the grey plane
    DeviceBuffer<std::int64_t> sums_;
    DeviceBuffer<float> scores_;
};

}  // namespace cascade::gpu
