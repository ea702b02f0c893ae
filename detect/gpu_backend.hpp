// The GPU backend (builds with CUDA only): the GPU LBP, HoG or Haar detector (gpu/lbp_gpu_detector.hpp,
// gpu/hog_gpu_detector.hpp, gpu/haar_gpu_detector.hpp) behind the Backend interface, for the model's kind, with
// the packed model's kernel tables as they were loaded: settings.frames_in_flight detectors on each of
// settings.devices, in a frame pipeline (gpu/frame_pipeline.hpp), so that submit() keeps several frames in flight.
//
// settings.pyramid: "exact" (the CPU's pyramid pixels: the same windows as the CPU backend) or "texture"
// (hardware bilinear sampling: faster, close to the CPU's); settings.compaction: a strategy name of
// gpu::parse_compaction ("auto" measures them on the first frames). Throws UsageError for a bad setting and
// InputError when no CUDA device is present, a listed device is missing, or the model is too large for the GPU
// tables.
#pragma once

#include <memory>

#include "common/packed_model.hpp"
#include "common/scan.hpp"
#include "detect/backend.hpp"

namespace cascade::detect {

std::unique_ptr<Backend> make_gpu_backend(const PackedModel& model, const ScanParams& params,
                                          const GpuSettings& settings);

}  // namespace cascade::detect
