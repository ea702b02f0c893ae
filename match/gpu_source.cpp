// The GPU matchers as cascade-match's map source (match/map_source.hpp); in a build without CUDA, --backend gpu
// is refused.
#include "cli/usage_error.hpp"
#include "common/error.hpp"
#include "match/map_source.hpp"

#ifdef CASCADE_GPU_BACKEND
#include "gpu/covariance_gpu.hpp"
#include "gpu/cuda_check.hpp"
#include "gpu/template_match_gpu.hpp"
#endif

namespace cascade::match {

#ifdef CASCADE_GPU_BACKEND
namespace {

class GpuSource : public MapSource {
public:
    GpuSource(const Options& options, const TemplatePlanes& templates) : options_(options) {
        for (const MatchPlanes& t : templates.sizes) {
            windows_.push_back({t.width(), t.height()});
            if (!options.covariance) matchers_.push_back(std::make_unique<gpu::TemplateMatcherGpu>(t, options.method));
        }
        if (options.covariance)
            covariance_ = std::make_unique<gpu::CovarianceMatcherGpu>(
                CovarianceLayout{templates.sizes.front().channels, options.extended}, templates.target,
                *options.covariance);
    }

    std::vector<ScoreMap> maps(const MatchPlanes& image, const GrayView& grey, const StagingFill& fill) override {
        if (covariance_) return covariance_->search(image, grey, windows_, options_.step, fill);
        std::vector<ScoreMap> out;
        for (const auto& m : matchers_) out.push_back(m->score_map(image));
        return out;
    }

    std::optional<Detection> best(const MatchPlanes& image, const GrayView& grey, const StagingFill& fill) override {
        if (!covariance_) return std::nullopt;
        const gpu::CovarianceBest b = covariance_->best(image, grey, windows_, options_.step, fill);
        const Size& w = windows_[static_cast<std::size_t>(b.window)];
        return Detection{{b.x, b.y, w.width, w.height}, b.distance};
    }

    std::uint8_t* staging(Size size) override { return covariance_ ? covariance_->staging(size) : nullptr; }

    std::vector<std::vector<MatchPosition>> exact(const MatchPlanes& image) override {
        std::vector<std::vector<MatchPosition>> out;
        for (const auto& m : matchers_) out.push_back(m->exact_matches(image));
        return out;
    }

private:
    const Options& options_;
    std::vector<Size> windows_;
    std::vector<std::unique_ptr<gpu::TemplateMatcherGpu>> matchers_;
    std::unique_ptr<gpu::CovarianceMatcherGpu> covariance_;
};

}  // namespace

std::unique_ptr<MapSource> make_gpu_source(const Options& options, const TemplatePlanes& templates) {
    if (!gpu::cuda_device_available()) throw InputError("--backend gpu", "no CUDA device is available");
    return std::make_unique<GpuSource>(options, templates);
}
#else
std::unique_ptr<MapSource> make_gpu_source(const Options&, const TemplatePlanes&) {
    throw cli::UsageError("--backend", "backend gpu is not available in this build (built without CUDA)");
}
#endif

}  // namespace cascade::match
