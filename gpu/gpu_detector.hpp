// The public face every GPU detector shares (gpu/lbp_gpu_detector.hpp, gpu/hog_gpu_detector.hpp are its
// families): detect one frame, report what that did, and which compaction strategy automatic settled on.
//
// What a detector represents: one cascade uploaded to the current CUDA device, with per-frame-size buffers, a
// stream and pinned staging memory (gpu/detector_core.hpp runs the frame).
//
// Thread safety: one detector is used by one thread at a time. Detectors of one family share the device's
// constant memory (the model is copied there before each frame when another detector of the family ran last),
// so calls of different detectors of one family on one device must not overlap in time, unless they run one
// model and share_constants() tied them; sequential calls from any threads are fine. A detector runs on the
// CUDA device that was current when it was made (each call makes it current again). Several frames at once:
// gpu/frame_pipeline.hpp.
#pragma once

#include <memory>
#include <vector>

#include "common/detection.hpp"
#include "common/image.hpp"
#include "gpu/detector_types.hpp"

namespace cascade::gpu {

class DetectorCore;

class GpuDetector {
public:
    virtual ~GpuDetector();
    GpuDetector(GpuDetector&&) noexcept;
    GpuDetector& operator=(GpuDetector&&) noexcept;

    // requires: frame.data points to host memory of frame.height rows of frame.stride bytes.
    // ensures:  every window the cascade accepts, in image coordinates with score = final sum, sorted by
    //           (rect, score) -- the order of the CPU's detect_windows, refined by score for equal rectangles.
    //           In exact mode the result equals the CPU reference's detect_windows(cascade, frame, {pyramid,
    //           rule}) for every compaction strategy.
    std::vector<Detection> detect(const GrayView& frame);

    const GpuStats& last_stats() const;
    // The strategy automatic settled on, or the fixed one; automatic while still measuring.
    Compaction chosen_compaction() const;
    int device() const;
    // requires: `same_model` is a detector of the same family and model (the same tables and options).
    // ensures:  the two share the family's constant memory, so their calls may overlap in time.
    void share_constants(const GpuDetector& same_model);

protected:
    explicit GpuDetector(std::unique_ptr<DetectorCore> core);

private:
    std::unique_ptr<DetectorCore> core_;
};

}  // namespace cascade::gpu
