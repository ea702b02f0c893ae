// Detection backends: where the raw windows of a cascade are computed. The rest of the tool sees only this
// interface, so the GPU backend plugs in here.
//
// require_backend throws UsageError for an unknown name or one not built in ("gpu" without CUDA).
// make_backend gives the backend for the model's kind: "cpu", the CPU reference detectors for LBP and HoG;
// "gpu", the GPU detectors (detect/gpu_backend.hpp), which run the packed model's kernel tables as loaded. A
// backend that cannot run a model throws InputError.
#pragma once

#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/device_list.hpp"
#include "common/detection.hpp"
#include "common/image.hpp"
#include "common/lbp_cpu_detector.hpp"
#include "common/model.hpp"
#include "common/packed_model.hpp"

namespace cascade::detect {

class Backend {
public:
    virtual ~Backend() = default;
    virtual Size window() const = 0;
    // Every window the cascade accepts, in image coordinates, in a deterministic order.
    virtual std::vector<Detection> windows(const GrayView& image) = 0;

    // Several frames at once (the GPU backend; here, one at a time): submit() at most capacity() frames, take()
    // each one's windows in submission order; an image's pixels stay valid until its take() or drain().
    virtual int capacity() const { return 1; }
    virtual void submit(const GrayView& image) { done_.push_back(windows(image)); }
    virtual std::vector<Detection> take();
    // Drops the frames in flight, once none is being read any more (after a failure).
    virtual void drain() noexcept { done_.clear(); }

private:
    std::deque<std::vector<Detection>> done_;
};

// The GPU backend's own settings (--gpu-pyramid, --compaction, --devices, --frames-in-flight).
struct GpuSettings {
    std::string pyramid = "exact";
    std::string compaction = "auto";
    cli::DeviceList devices = {false, {0}};
    int frames_in_flight = 1;  // per device listed (cascade-detect's default: kFramesInFlight)
};

// cascade-detect --frames-in-flight: its default (docs/benchmarks.md) and its largest value (each frame in flight
// holds a detector's buffers on the device).
constexpr int kFramesInFlight = 4;
constexpr int kMaxFramesInFlight = 64;

void require_backend(const std::string& name);

// The model a backend runs for --min-score T (cascade-detect then drops the windows scoring below T): below
// the model's last threshold, that stage lets through every window whose sum reaches T, so the windows it
// would reject with such a sum come out too, scored by that sum (cascade-eval image --model lowers the last
// threshold the same way); nullopt or T above it: the model as it is. CPU and GPU backends run the same
// stages, so both move alike.
PackedModel with_min_score(const PackedModel& model, std::optional<float> min_score);

std::unique_ptr<Backend> make_backend(const std::string& name, const PackedModel& model, const ScanParams& params,
                                      const GpuSettings& gpu);

}  // namespace cascade::detect
