// The FOAGDD backends of cascade-keypoints: the CPU reference (common/foagdd_cpu.hpp) or, in a build with CUDA,
// the GPU detector (gpu/foagdd_gpu.hpp); without CUDA, --backend gpu is a UsageError.
#pragma once

#include <functional>
#include <vector>

#include "common/foagdd_cpu.hpp"
#include "keypoints/options.hpp"

namespace cascade::keypoints {

using KeypointFinder = std::function<std::vector<Keypoint>(const GrayView& grey)>;

KeypointFinder make_finder(const Options& options);

}  // namespace cascade::keypoints
