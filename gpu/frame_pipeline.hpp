// Several frames in flight, on one GPU or several: a fixed set of slots, each a GPU detector of its own (its
// stream, pinned staging and result buffers, per-frame-size device workspace: gpu/detector_core.hpp) run by a
// host thread of its own, so that the staging, upload, pyramid, cascade and download of one frame overlap those
// of the others. The slots of one device share their model's constant memory (GpuDetector::share_constants).
//
// Contract:
//   - submit() frames, take() their windows: take() returns the oldest frame not yet taken, with exactly the
//     windows one detector's detect() gives for it, whichever slot or device ran it (results in input order).
//   - At most capacity() frames are in flight (submitted, not taken): submit() beyond that is a logic error.
//     A frame's pixels must stay valid until its take() returns, or until drain() or the destructor returns.
//   - The slots take waiting frames oldest first, so a faster device takes more of them.
//   - A failure on a slot stops the pipeline: no slot starts another frame, and every later take() throws it
//     (a CUDA error naming the device: "GPU 1 (NVIDIA H100 80GB HBM3): ..."). drain() waits for the frames
//     being run and drops every frame in flight; the destructor drains.
#pragma once

#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "common/detection.hpp"
#include "common/image.hpp"
#include "gpu/gpu_detector.hpp"

namespace cascade::gpu {

// "GPU 1 (NVIDIA H100 80GB HBM3)"; requires a valid device index.
std::string gpu_name(int device);

// The number of CUDA devices (0 without a driver or device).
int gpu_count();

class FramePipeline {
public:
    // Makes one detector; called with the slot's device current. Every call must give the same model and options.
    using MakeDetector = std::function<std::unique_ptr<GpuDetector>()>;

    // requires: devices non-empty, each an index of this machine's devices (cli/device_list.hpp checks them; a
    //           device listed twice gets two sets of slots); frames_in_flight >= 1.
    // ensures:  devices.size() * frames_in_flight slots, each with its detector; throws what `make` throws.
    FramePipeline(const MakeDetector& make, const std::vector<int>& devices, int frames_in_flight);
    ~FramePipeline();
    FramePipeline(const FramePipeline&) = delete;
    FramePipeline& operator=(const FramePipeline&) = delete;

    int capacity() const { return static_cast<int>(slots_.size()); }
    int in_flight() const;
    void submit(const GrayView& frame);
    std::vector<Detection> take();
    void drain() noexcept;

    // A slot's detector, for its statistics; only while nothing is in flight.
    const GpuDetector& detector(int slot) const { return *slots_[static_cast<std::size_t>(slot)].detector; }

private:
    struct Slot {
        std::unique_ptr<GpuDetector> detector;
        std::string name;  // its device, as gpu_name() gives it
    };
    struct Job {
        long long index;
        GrayView frame;
    };
    void work(Slot& slot);

    std::vector<Slot> slots_;
    mutable std::mutex mutex_;
    std::condition_variable changed_;
    std::deque<Job> waiting_;
    std::map<long long, std::vector<Detection>> done_;
    long long submitted_ = 0, taken_ = 0;
    int running_ = 0;
    std::exception_ptr failure_;
    bool stop_ = false;
    std::vector<std::thread> threads_;
};

}  // namespace cascade::gpu
