#include "gpu/gpu_detector.hpp"

#include "gpu/detector_core.hpp"

namespace cascade::gpu {

GpuDetector::GpuDetector(std::unique_ptr<DetectorCore> core) : core_(std::move(core)) {}
GpuDetector::~GpuDetector() = default;
GpuDetector::GpuDetector(GpuDetector&&) noexcept = default;
GpuDetector& GpuDetector::operator=(GpuDetector&&) noexcept = default;

std::vector<Detection> GpuDetector::detect(const GrayView& frame) { return core_->detect(frame); }
const GpuStats& GpuDetector::last_stats() const { return core_->stats(); }
Compaction GpuDetector::chosen_compaction() const { return core_->chosen_compaction(); }
int GpuDetector::device() const { return core_->device(); }
void GpuDetector::share_constants(const GpuDetector& same_model) { core_->share_constants(*same_model.core_); }

}  // namespace cascade::gpu
