#include "detect/backend.hpp"

#include <algorithm>
#include <type_traits>
#include <variant>

#include "cli/usage_error.hpp"
#include "common/cov_cpu_detector.hpp"
#include "common/haar_cpu_detector.hpp"
#include "common/hog_cpu_detector.hpp"
#ifdef CASCADE_GPU_BACKEND
#include "detect/gpu_backend.hpp"
#endif

namespace cascade::detect {

using cli::UsageError;

namespace {

// The CPU reference detector of either cascade kind (detect_windows is overloaded on the cascade type).
template <class Cascade>
class CpuBackend : public Backend {
public:
    CpuBackend(const Cascade& cascade, const ScanParams& params) : cascade_(cascade), params_(params) {}
    Size window() const override { return cascade_.window; }
    std::vector<Detection> windows(const GrayView& image) override {
        return detect_windows(cascade_, image, params_);
    }

private:
    Cascade cascade_;
    ScanParams params_;
};

}  // namespace

std::vector<Detection> Backend::take() {
    std::vector<Detection> windows = std::move(done_.front());
    done_.pop_front();
    return windows;
}

void require_backend(const std::string& name) {
    if (name == "cpu") return;
#ifdef CASCADE_GPU_BACKEND
    if (name == "gpu") return;
    throw UsageError("--backend", "unknown backend '" + name + "' (choose cpu or gpu)");
#else
    if (name == "gpu") throw UsageError("--backend", "backend gpu is not available in this build (built without CUDA)");
    throw UsageError("--backend", "unknown backend '" + name + "' (choose cpu)");
#endif
}

PackedModel with_min_score(const PackedModel& model, std::optional<float> min_score) {
    if (!min_score) return model;
    PackedModel out = model;
    std::visit(
        [&](auto& cascade) {
            float* threshold = &cascade.stages.back().threshold;
            if constexpr (std::is_same_v<std::decay_t<decltype(cascade)>, LbpCascade>)
                if (cascade.final_svm) threshold = &cascade.final_svm->threshold;  // the final decision
            *threshold = std::min(*threshold, *min_score);
        },
        out.model.cascade);
    return out;
}

std::unique_ptr<Backend> make_backend(const std::string& name, const PackedModel& model, const ScanParams& params,
                                      const GpuSettings& gpu) {
    require_backend(name);
#ifdef CASCADE_GPU_BACKEND
    if (name == "gpu") return make_gpu_backend(model, params, gpu);
#else
    (void)gpu;
#endif
    return std::visit(
        [&](const auto& cascade) -> std::unique_ptr<Backend> {
            return std::make_unique<CpuBackend<std::decay_t<decltype(cascade)>>>(cascade, params);
        },
        model.model.cascade);
}

}  // namespace cascade::detect
