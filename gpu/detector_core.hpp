// The detector core: one frame's pipeline on the GPU, the same for every feature family (host side).
//
//   stage the frame (pinned memory, one 2D copy on the detector's stream) -> the family builds its feature
//   planes of every pyramid level -> the family's cascade kernels (gpu/cascade_kernels.cuh) over every
//   window position, survivors compacted by the strategy of this frame (fixed, or tried in turn by
//   automatic: gpu/strategy_trials.hpp) -> OpenCV's skip rule (stride 0: gpu/skip_rule_gpu.hpp) ->
//   download of the accepted windows, mapped to the image with the CPU's rounding and sorted -> stats.
//
// A family derives from it and supplies the hooks: its frame layout, its planes (allocated per frame size,
// built per frame) and its cascade launch with its window source; a new family is a new window source and
// plane builder. What the core owns per frame size: the frame, the GpuLevel table on the device, the
// resize taps (exact mode) or the frame's texture (texture mode), the survivor lists and counters.
//
// Constant memory: each family keeps its model's stages and weak learners in its own __constant__ arrays (one
// copy per device), which every detector of the family on that device shares: before a frame, a detector whose
// model is not the one there has the family copy it in (upload_constants, ordered on its stream). Calls of two
// detectors of one family on one device must therefore not overlap, unless they share their model's constants
// (share_constants: detectors of one model, as gpu/frame_pipeline.hpp makes them); sequential calls from any
// threads are fine. A detector runs on the device that was current when it was made.
#pragma once

#include <cuda_runtime_api.h>

#include <atomic>
#include <cstdint>
#include <vector>

#include "common/detection.hpp"
#include "common/image.hpp"
#include "common/model.hpp"
#include "common/resize_exact.hpp"
#include "gpu/cascade_target.hpp"
#include "gpu/detector_types.hpp"
#include "gpu/device_buffer.hpp"
#include "gpu/frame_layout.hpp"
#include "gpu/kernel_timer.hpp"
#include "gpu/strategy_trials.hpp"
#include "gpu/texture.hpp"

namespace cascade::gpu {

// Which detector's model each device's constant memory holds, for one family (ids of DetectorCore); devices
// 0..kMaxDevices-1.
class ConstantOwner {
public:
    static constexpr int kMaxDevices = 64;
    // Records `id` as the holder on `device`; true when another detector's model was there (upload it).
    bool take(int device, std::uint64_t id) { return owner_[device].exchange(id) != id; }
    // `to` holds the device's constant memory if `from` did (their models' tables are the same bytes).
    void rename(int device, std::uint64_t from, std::uint64_t to) {
        owner_[device].compare_exchange_strong(from, to);
    }

private:
    std::atomic<std::uint64_t> owner_[kMaxDevices] = {};
};

// The frame of one detect() call on the device, as the family's plane builders read it.
struct DeviceFrame {
    GrayView pixels;              // device memory, pitched
    cudaTextureObject_t texture;  // texture mode: TextureObject::bilinear_u8 over `pixels`; exact mode: 0
    const ResizeTap* taps_x;      // exact mode: every level's taps at GpuLevel::taps_x / taps_y; texture: null
    const ResizeTap* taps_y;
    const GpuLevel* levels;       // device copy of the layout's GpuLevel table
};

class DetectorCore {
public:
    virtual ~DetectorCore();
    DetectorCore(const DetectorCore&) = delete;
    DetectorCore& operator=(const DetectorCore&) = delete;

    // requires: frame.data points to host memory of frame.height rows of frame.stride bytes.
    // ensures:  every window the cascade accepts, in image coordinates with score = final sum, sorted by
    //           (rect, score).
    std::vector<Detection> detect(const GrayView& frame);
    const GpuStats& stats() const { return stats_; }
    Compaction chosen_compaction() const { return trials_.chosen(); }
    int device() const { return device_; }
    // requires: `same_model` is of this family and runs the same model (its constant tables are the same bytes).
    // ensures:  the two detectors count as one owner of the family's constant memory, so that neither copies the
    //           model in again when the other ran last, and their calls may overlap.
    void share_constants(const DetectorCore& same_model) {
        owner_.rename(device_, id_, same_model.id_);
        id_ = same_model.id_;
    }

protected:
    // Checks the options that every family shares (InputError naming "GPU detector"): scale factor > 1,
    // stride >= 0, compaction points positive, increasing and at most kMaxGroups - 1 groups' worth,
    // auto_frames >= 2. `constant_owner`: the family's record of which detector's model constant memory holds.
    DetectorCore(const GpuOptions& options, const std::vector<Stage>& stages, SumPolicy policy,
                 ConstantOwner& constant_owner);
    cudaStream_t stream() const { return stream_.get(); }
    // For the family's constructor: copies its model into constant memory now (upload_constants), so that a
    // model too large for it is refused at construction, and records that constant memory holds this detector's.
    void claim_constants();

    // The layout of a frame size (FrameLayout::gpu, positions, block numbering); kept by the family until the
    // next call.
    virtual const FrameLayout& make_layout(Size frame) = 0;
    // The family's planes for the layout just made.
    virtual void allocate_planes(const DeviceFrame& frame) = 0;
    // The planes of every level for this frame, as `strategy`'s kernels read them.
    virtual void build_planes(const DeviceFrame& frame, Compaction strategy, KernelTimer& timer) = 0;
    // gpu/cascade_kernels.cuh launch_cascade with the family's window source.
    virtual void run_cascade(const CascadeTarget& target, const std::vector<int>& ends, Compaction strategy,
                             KernelTimer& timer) = 0;
    // Copies the model into the family's constant memory, on stream().
    virtual void upload_constants() = 0;

private:
    void prepare(Size size);
    DeviceFrame device_frame() const;
    void upload(const GrayView& image);
    int evaluate(Compaction strategy);
    std::vector<Detection> download(int last);
    void record_stats(Compaction strategy, const std::vector<Detection>& found);

    GpuOptions options_;
    int num_stages_;
    SumPolicy policy_;
    std::vector<int> ends_;       // group ends in stages
    std::vector<int> ends_weak_;  // the same in weak learners
    ConstantOwner& owner_;
    std::uint64_t id_;
    int device_ = 0;
    StrategyTrials trials_;
    Stream stream_;

    // Per frame size.
    const FrameLayout* layout_ = nullptr;
    DeviceBuffer<std::uint8_t> frame_;
    std::size_t frame_pitch_ = 0;
    TextureObject frame_texture_;
    DeviceBuffer<GpuLevel> levels_;
    DeviceBuffer<ResizeTap> taps_x_, taps_y_;
    DeviceBuffer<Survivor> lists_[2];
    DeviceBuffer<std::uint8_t> stage0_rejected_, visited_;
    DeviceBuffer<int> counts_;
    PinnedBuffer<std::uint8_t> staging_;
    PinnedBuffer<int> host_counts_;
    PinnedBuffer<Survivor> host_records_;  // at least kRecordsAhead: copied with the counts, one sync per frame

    Event started_, uploaded_, planes_done_, cascade_done_, downloaded_;
    KernelTimer timer_;
    GpuStats stats_;
};

}  // namespace cascade::gpu
