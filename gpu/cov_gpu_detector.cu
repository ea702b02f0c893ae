#include "gpu/cov_gpu_detector.hpp"

#include <algorithm>

#include "gpu/cov_cascade_gpu.hpp"
#include "gpu/cov_features_gpu.hpp"
#include "gpu/detector_core.hpp"
#include "gpu/hog_features_gpu.hpp"

namespace cascade::gpu {

namespace {

// The covariance kernels read the model from each detector's own device memory; constant memory is not used, so
// this record only satisfies the core's bookkeeping.
ConstantOwner g_constant_owner;

class CovCore final : public DetectorCore {
public:
    CovCore(const CovCascade& cascade, const CovGpuOptions& options)
        : DetectorCore(options, cascade.stages, cascade.policy, g_constant_owner), cascade_(cascade), options_(options) {
        check_cov_stride(options.rule.stride);
        claim_constants();
    }

private:
    const FrameLayout& make_layout(Size frame) override {
        layout_ = make_cov_layout(frame, cascade_.window, options_.pyramid, options_.rule);
        return layout_.hog.base;
    }

    void allocate_planes(const DeviceFrame&) override {
        const cudaStream_t s = stream();
        copy_to_device(passes_, layout_.passes, s);
        pixels_.resize(static_cast<std::size_t>(std::max(layout_.hog.base.rows, 1)) * layout_.hog.pitch);
        if (reads_lbp_bins_) lbp_bins_.resize(pixels_.size());
        const std::size_t words = static_cast<std::size_t>(std::max(layout_.corners, 1LL)) * kCovPlanes;
        integrals_.resize(words);
        // Row 0 and column 0 of every level stay zero: the passes write only the corners below and right.
        CASCADE_CUDA_CHECK(cudaMemsetAsync(integrals_.get(), 0, words * sizeof(std::int64_t), s));
    }

    void build_planes(const DeviceFrame& frame, Compaction, KernelTimer& timer) override {
        const FrameLayout& base = layout_.hog.base;
        const HogFeatureTarget pixels{frame.levels, nullptr, static_cast<int>(base.gpu.size()), base.rows, 0,
                                      base.gpu.empty() ? 0 : base.gpu.front().width, layout_.hog.pitch, pixels_.get(),
                                      nullptr};
        if (options_.mode == PyramidMode::exact)
            resample_exact(pixels, frame.pixels, frame.taps_x, frame.taps_y, stream(), timer);
        else
            resample_texture(pixels, frame.texture, base.frame, stream(), timer);
        const CovFeatureTarget target{frame.levels, passes_.get(), static_cast<int>(base.gpu.size()),
                                      layout_.row_blocks, layout_.strip_blocks, layout_.hog.pitch, pixels_.get(),
                                      integrals_.get()};
        build_cov_integrals(target, stream(), timer);
        if (reads_lbp_bins_) build_lbp_bins(target, base.rows, lbp_bins_.get(), stream(), timer);
    }

    void run_cascade(const CascadeTarget& target, const std::vector<int>& ends, Compaction strategy,
                     KernelTimer& timer) override {
        run_cov_cascade({cascade_.window, cascade_.policy, stages_.get(), weaks_.get(), integrals_.get(),
                         reads_lbp_bins_ ? lbp_bins_.get() : nullptr, layout_.hog.pitch},
                        target, ends, strategy, stream(), timer);
    }

    void upload_constants() override {
        copy_to_device(stages_, cascade_.stages, stream());
        copy_to_device(weaks_, cascade_.weaks, stream());
    }

    CovCascade cascade_;
    const bool reads_lbp_bins_ = uses_lbp_bins(cascade_);
    CovGpuOptions options_;
    DeviceBuffer<Stage> stages_;
    DeviceBuffer<CovWeak> weaks_;

    // Per frame size.
    CovFrameLayout layout_;
    DeviceBuffer<GpuLevel> passes_;
    DeviceBuffer<std::uint8_t> pixels_;
    DeviceBuffer<std::int64_t> integrals_;
    DeviceBuffer<std::uint8_t> lbp_bins_;  // models with LBP-histogram learners
};

}  // namespace

CovGpuDetector::CovGpuDetector(const CovCascade& cascade, const CovGpuOptions& options)
    : GpuDetector(std::make_unique<CovCore>(cascade, options)), options_(options) {}

}  // namespace cascade::gpu
