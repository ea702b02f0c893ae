// The FOAGDD corner detector on the GPU (docs/keypoints.md), CUDA and common/ only. Everything stays on the
// device from the upload of the grey frame to the list of corners:
//   0. upload: the grey frame through a pinned staging buffer in strips on a copy stream (the host copy of one
//      overlaps the upload of the last), each band of responses launched as soon as its rows have arrived;
//   1. responses: the first scale's 8 filters (19x19) by a direct shared-memory convolution, each thread 8
//      pixels down a column, the taps in constant memory; the image is read through common/'s foagdd_pixel
//      (reflect padding) and every response is summed with fmaf in foagdd_response's order;
//   2. measure: per 32x8 tile, the 36 tensor entries by row sums reused across the disc (the order of common/'s
//      foagdd_measure, so the same bits), then det / trace per pixel (common/'s foagdd_tensor_measure);
//   3. candidates: the 5x5 maxima above the threshold, compacted in row-major order by cub::DeviceSelect;
//   4. larger scales: one block per candidate computes the 2 x 8 x 37 responses of sigma 3 and 4.5 at its disc
//      (31x31 taps, a thread per orientation and disc column, foagdd_response's order), 36 threads the tensor
//      entries, one the measure; the dense planes of those scales are never made.
// The arithmetic is the CPU reference's step for step, so the corners and their measures equal
// common/foagdd_cpu.hpp's foagdd_keypoints bit for bit (tests/gpu/test_foagdd_gpu.cpp).
#pragma once

#include <cstdint>
#include <vector>

#include "common/foagdd_cpu.hpp"
#include "common/geometry.hpp"
#include "gpu/detector_types.hpp"
#include "gpu/device_buffer.hpp"
#include "gpu/kernel_timer.hpp"

namespace cascade::gpu {

class FoagddGpu {
public:
    explicit FoagddGpu(double threshold = kFoagddThreshold);

    // The corners of a grey image in host memory (row-major order, first-scale measures).
    // requires: image.width, image.height >= kFoagddMinSide.
    std::vector<Keypoint> detect(const GrayView& image, bool time_kernels = false) {
        start(image, time_kernels);
        return finish();
    }

    // detect in two halves, so that a caller with two detectors overlaps one frame's upload with the other's
    // kernels: start returns once the frame is in pinned memory (the caller's image may then change) and steps 1-3
    // are queued; finish waits for the candidates and runs step 4. Every start is followed by one finish.
    void start(const GrayView& image, bool time_kernels = false);
    std::vector<Keypoint> finish();

    // Pinned host memory for a frame of `size` (stride size.width). A frame written there and passed to detect or
    // start as a view of it is not copied again on the host. Valid until a call with a larger size.
    std::uint8_t* staging(Size size);

    // Per-stage times of the last detect with time_kernels (CUDA events): upload, responses, measure,
    // candidates, scales, download.
    std::vector<KernelTime> kernel_times() const { return timer_.collect(); }

private:
    static constexpr int kStrips = 4;  // the frame goes up in strips of rows
    void upload_and_respond(const GrayView& image, bool overlap);
    void select_candidates(int width, int height);
    std::vector<Keypoint> check_scales(int count);

    double threshold_;
    Stream stream_, copy_stream_;
    Event strip_ready_[kStrips + 1];  // each strip uploaded; [kStrips]: the last frame's kernels queued before
    KernelTimer timer_;
    int width_ = 0, height_ = 0;
    PinnedBuffer<std::uint8_t> host_image_;
    DeviceBuffer<std::uint8_t> image_;
    DeviceBuffer<float> planes_, taps_;  // taps_: sigma 3 and 4.5, 31x31 each
    DeviceBuffer<double> map_, point_measures_;
    DeviceBuffer<int> candidates_, count_;
    DeviceBuffer<std::uint8_t> kept_, select_temp_;
    PinnedBuffer<int> host_count_, host_candidates_;
    PinnedBuffer<std::uint8_t> host_kept_;
    PinnedBuffer<double> host_measures_;
};

}  // namespace cascade::gpu
