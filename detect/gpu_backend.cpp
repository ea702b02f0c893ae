#include "detect/gpu_backend.hpp"

#include "cli/usage_error.hpp"
#include "gpu/cuda_check.hpp"
#include "gpu/haar_gpu_detector.hpp"
#include "gpu/hog_gpu_detector.hpp"
#include "gpu/lbp_gpu_detector.hpp"

namespace cascade::detect {

using cli::UsageError;

namespace {

class GpuBackend : public Backend {
public:
    GpuBackend(Size window, std::unique_ptr<gpu::GpuDetector> detector)
        : window_(window), detector_(std::move(detector)) {}
    Size window() const override { return window_; }
    std::vector<Detection> windows(const GrayView& image) override { return detector_->detect(image); }

private:
    Size window_;
    std::unique_ptr<gpu::GpuDetector> detector_;
};

template <class GpuOptions>
GpuOptions gpu_options(const ScanParams& params, const GpuSettings& settings) {
    GpuOptions o;
    o.pyramid = params.pyramid;
    o.rule = params.rule;
    if (settings.pyramid == "texture")
        o.mode = gpu::PyramidMode::texture;
    else if (settings.pyramid != "exact")
        throw UsageError("--gpu-pyramid", "unknown pyramid '" + settings.pyramid + "' (exact, texture)");
    if (o.mode == gpu::PyramidMode::texture && params.pyramid.first_scale != 1.0)
        throw UsageError("--gpu-pyramid", "texture pyramids start at scale 1; use exact with --first-scale");
    try {
        o.compaction = gpu::parse_compaction(settings.compaction, "--compaction");
    } catch (const InputError& e) {
        throw UsageError("--compaction", e.problem());
    }
    return o;
}

}  // namespace

std::unique_ptr<Backend> make_gpu_backend(const PackedModel& model, const ScanParams& params,
                                          const GpuSettings& settings) {
    const auto lbp = gpu_options<gpu::LbpGpuOptions>(params, settings);  // checks the settings first
    if (!gpu::cuda_device_available()) throw InputError("--backend gpu", "no CUDA device is available");
    if (const auto* c = std::get_if<LbpCascade>(&model.model.cascade))
        return std::make_unique<GpuBackend>(c->window, std::make_unique<gpu::LbpGpuDetector>(*c, model.stumps, lbp));
    if (const auto* c = std::get_if<HaarCascade>(&model.model.cascade))
        return std::make_unique<GpuBackend>(
            c->window, std::make_unique<gpu::HaarGpuDetector>(*c, gpu_options<gpu::HaarGpuOptions>(params, settings)));
    const auto& hog = std::get<HogCascade>(model.model.cascade);
    return std::make_unique<GpuBackend>(
        hog.window, std::make_unique<gpu::HogGpuDetector>(hog, gpu_options<gpu::HogGpuOptions>(params, settings)));
}

}  // namespace cascade::detect
