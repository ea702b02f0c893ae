#include "detect/gpu_backend.hpp"

#include "cli/usage_error.hpp"
#include "gpu/cov_gpu_detector.hpp"
#include "gpu/frame_pipeline.hpp"
#include "gpu/haar_gpu_detector.hpp"
#include "gpu/hog_gpu_detector.hpp"
#include "gpu/lbp_gpu_detector.hpp"

namespace cascade::detect {

using cli::UsageError;

namespace {

// The detectors of a frame pipeline (gpu/frame_pipeline.hpp): one per frame in flight on each listed device.
class GpuBackend : public Backend {
public:
    GpuBackend(Size window, const gpu::FramePipeline::MakeDetector& make, const std::vector<int>& devices,
               int frames_in_flight)
        : window_(window), pipeline_(make, devices, frames_in_flight) {}
    Size window() const override { return window_; }
    std::vector<Detection> windows(const GrayView& image) override {
        pipeline_.submit(image);
        return pipeline_.take();
    }
    int capacity() const override { return pipeline_.capacity(); }
    void submit(const GrayView& image) override { pipeline_.submit(image); }
    std::vector<Detection> take() override { return pipeline_.take(); }
    void drain() noexcept override { pipeline_.drain(); }

private:
    Size window_;
    gpu::FramePipeline pipeline_;
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
    if (settings.frames_in_flight < 1) throw UsageError("--frames-in-flight", "must be at least 1");
    const int count = gpu::gpu_count();
    if (count == 0) throw InputError("--backend gpu", "no CUDA device is available");
    const std::vector<int> devices = cli::resolve_devices("--devices", settings.devices, count);
    const auto backend = [&](Size window, gpu::FramePipeline::MakeDetector make) {
        return std::make_unique<GpuBackend>(window, make, devices, settings.frames_in_flight);
    };
    if (const auto* c = std::get_if<LbpCascade>(&model.model.cascade))
        return backend(c->window, [&] { return std::make_unique<gpu::LbpGpuDetector>(*c, model.stumps, lbp); });
    if (const auto* c = std::get_if<HaarCascade>(&model.model.cascade)) {
        const auto haar = gpu_options<gpu::HaarGpuOptions>(params, settings);
        return backend(c->window, [&] { return std::make_unique<gpu::HaarGpuDetector>(*c, haar); });
    }
    if (const auto* c = std::get_if<CovCascade>(&model.model.cascade)) {
        const auto cov = gpu_options<gpu::CovGpuOptions>(params, settings);
        return backend(c->window, [&] { return std::make_unique<gpu::CovGpuDetector>(*c, cov); });
    }
    const auto& hog = std::get<HogCascade>(model.model.cascade);
    const auto options = gpu_options<gpu::HogGpuOptions>(params, settings);
    return backend(hog.window, [&] { return std::make_unique<gpu::HogGpuDetector>(hog, options); });
}

}  // namespace cascade::detect
