// Region covariance search on the GPU (common/covariance_features.hpp): a frame's features and int64 integral
// images (gpu/covariance_integrals_gpu.hpp), then the distance of every window of each size, `step` pixels apart,
// to a target covariance. CUDA and common/ only.
//
// Frames go up through a pinned staging buffer owned by the matcher, in strips of rows: each strip is written there
// (the caller's planes copied, or a StagingFill writing the caller's frame straight into staging(), with no copy
// after it), then its upload queued, which overlaps the writing of the next strip. Windows: one thread per window,
// every window size in one launch, common/'s window_distance for the layout's dimension (covariance, then Jacobi or
// Cholesky against the target prepared once by spd_target, the matrices in registers), so the distances equal the
// CPU reference's up to the device's log and sqrt (double, within an ulp or two). search() downloads every map; best() only the best window (each block's
// best by cub::BlockReduce, the frame's by one atomicMin on the distance's bits and the window's index).
#pragma once

#include <cstdint>
#include <vector>

#include "common/covariance_features.hpp"
#include "common/geometry.hpp"
#include "common/staging_fill.hpp"
#include "gpu/covariance_integrals_gpu.hpp"
#include "gpu/device_buffer.hpp"
#include "gpu/kernel_timer.hpp"
#include "gpu/template_match_gpu.hpp"

namespace cascade::gpu {

// The window nearest the target: its size (an index into the search's windows), top-left corner and distance.
struct CovarianceBest {
    int window = 0;
    int x = 0, y = 0;
    float distance = 0.f;
};

class CovarianceMatcherGpu {
public:
    // target: a regularised covariance of the layout's dimension (row-major).
    CovarianceMatcherGpu(CovarianceLayout layout, const std::vector<double>& target, CovMetric metric);

    // search: requires colour.channels == layout.channels, grey of the same size (the colour plane itself in
    //   grey), every window within the frame with 2 to 2^20 pixels, frames up to 4096x4096. One map per window.
    //   fill (search, best, start), when given, writes the frame into staging() strip by strip, each strip just before
    //   its upload; colour and grey must then be views of staging()'s planes.
    std::vector<ScoreMap> search(const MatchPlanes& colour, const GrayView& grey, const std::vector<Size>& windows,
                                 int step, const StagingFill& fill = {});

    // best: as search, but only the best window: the smallest distance; among equals the first window size, then
    //   the first position in row-major order (the CPU's find_peaks and merge_peaks with top 1 and no threshold).
    CovarianceBest best(const MatchPlanes& colour, const GrayView& grey, const std::vector<Size>& windows, int step,
                        const StagingFill& fill = {}) {
        start(colour, grey, windows, step, fill);
        return finish_best();
    }

    // best() in two halves, so that a caller with two matchers overlaps one frame's upload with the other's
    // kernels: start returns once the frame is in pinned memory (the caller's planes may then change) and the
    // work is queued; finish_best waits for it. Every start is followed by one finish_best.
    void start(const MatchPlanes& colour, const GrayView& grey, const std::vector<Size>& windows, int step,
               const StagingFill& fill = {});
    CovarianceBest finish_best();

    // staging: pinned host memory for a frame of `size`: layout.channels colour planes, then the grey plane, each
    //   size.width x size.height bytes, stride size.width. A frame written there and passed to search/best/start as
    //   views of these planes is not copied again on the host. Valid until the next call with another size; write
    //   there only after the last search, best or finish_best returned (the upload reads it until then).
    std::uint8_t* staging(Size size);

    // The integral images of the last search (host copy), as common/covariance_integrals.hpp lays them out.
    std::vector<std::int64_t> integrals() const;

    // Kernel times of the last search, after it returned: totals, carries, integrals (gpu/covariance_integrals_gpu),
    // then "windows" (every window size's distances and, for best(), the best window).
    std::vector<KernelTime> times() const { return timer_.collect(); }
    void time_kernels(bool on) { timing_ = on; }

private:
    void upload(const MatchPlanes& colour, const GrayView& grey, const StagingFill& fill);
    void enqueue(const MatchPlanes& colour, const GrayView& grey, const std::vector<Size>& windows, int step,
                 bool with_best, const StagingFill& fill);

    Stream stream_;
    CovarianceLayout layout_;
    CovMetric metric_;
    bool timing_ = false;
    KernelTimer timer_;
    Event uploaded_;  // the last frame's upload has read the staging buffer
    DeviceBuffer<SpdTarget> target_;
    PinnedBuffer<std::uint8_t> staging_;
    Size staged_;  // the frame size staging_ is laid out for
    DeviceBuffer<std::uint8_t> pixels_;  // the colour planes, then the grey plane
    CovarianceIntegralsGpu integrals_;
    std::vector<ScoreMap> maps_;  // the last search's map sizes (no scores)
    DeviceBuffer<float> scores_;  // every map, one after another
    DeviceBuffer<unsigned long long> best_;  // the best window's key: its distance's bits, then its index
    PinnedBuffer<unsigned long long> best_host_;
};

}  // namespace cascade::gpu
