#include "keypoints/finder.hpp"

#include <memory>

#include "cli/usage_error.hpp"
#include "common/error.hpp"

#ifdef CASCADE_GPU_BACKEND
#include "gpu/cuda_check.hpp"
#include "gpu/foagdd_gpu.hpp"
#endif

namespace cascade::keypoints {

KeypointFinder make_finder(const Options& options) {
    if (options.backend == "cpu")
        return [threshold = options.threshold, threads = options.threads](const GrayView& grey) {
            return foagdd_keypoints(grey, threshold, threads);
        };
#ifdef CASCADE_GPU_BACKEND
    if (!gpu::cuda_device_available()) throw InputError("--backend gpu", "no CUDA device is available");
    auto detector = std::make_shared<gpu::FoagddGpu>(options.threshold);
    return [detector](const GrayView& grey) { return detector->detect(grey); };
#else
    throw cli::UsageError("--backend", "gpu: this build has no CUDA (rebuild with the CUDA toolkit)");
#endif
}

}  // namespace cascade::keypoints
