#include "gpu/hog_gpu_detector.hpp"

#include <algorithm>
#include <atomic>

#include "gpu/detector_core.hpp"
#include "gpu/hog_cascade_gpu.hpp"
#include "gpu/hog_features_gpu.hpp"
#include "gpu/hog_layout.hpp"

namespace cascade::gpu {

namespace {

// Which HoG detector's model the HoG kernels' constant memory holds (gpu/detector_core.hpp).
ConstantOwner g_constant_owner;

// The HoG family's planes: every level's image, stacked by rows, and its interleaved integral histograms.
class HogCore final : public DetectorCore {
public:
    HogCore(const HogCascade& cascade, const HogGpuOptions& options)
        : DetectorCore(options, cascade.stages, cascade.policy, g_constant_owner),
          cascade_(cascade),
          options_(options),
          reads_pixels_(std::any_of(cascade.weaks.begin(), cascade.weaks.end(), [](const HogWeak& w) {
              return is_dalal_triggs(w.descriptor) || w.descriptor == kHogDescriptorLbpHistogram;
          })) {
        claim_constants();
    }

private:
    const FrameLayout& make_layout(Size frame) override {
        layout_ = make_hog_layout(frame, cascade_.window, options_.pyramid, options_.rule);
        return layout_.base;
    }

    void allocate_planes(const DeviceFrame&) override {
        const cudaStream_t s = stream();
        copy_to_device(word_levels_, layout_.words, s);
        pixels_.resize(static_cast<std::size_t>(std::max(layout_.base.rows, 1)) * layout_.pitch);
        integrals_.resize(static_cast<std::size_t>(layout_.base.integral_elements));
        // Row 0 and corner 0 of every table stay zero: the kernels write only the corners below and right.
        CASCADE_CUDA_CHECK(
            cudaMemsetAsync(integrals_.get(), 0, layout_.base.integral_elements * sizeof(std::uint32_t), s));
    }

    void build_planes(const DeviceFrame& frame, Compaction, KernelTimer& timer) override {
        const FrameLayout& base = layout_.base;
        const HogFeatureTarget target{frame.levels,  word_levels_.get(),
                                      static_cast<int>(base.gpu.size()), base.rows, layout_.word_strips,
                                      base.gpu.empty() ? 0 : base.gpu.front().width,
                                      layout_.pitch, pixels_.get(), integrals_.get()};
        if (options_.mode == PyramidMode::exact)
            resample_exact(target, frame.pixels, frame.taps_x, frame.taps_y, stream(), timer);
        else
            resample_texture(target, frame.texture, base.frame, stream(), timer);
        build_integral_histograms(target, stream(), timer);
    }

    void run_cascade(const CascadeTarget& target, const std::vector<int>& ends, Compaction strategy,
                     KernelTimer& timer) override {
        run_hog_cascade({cascade_.window, cascade_.policy, integrals_.get(), pixels_.get(), layout_.pitch, reads_pixels_},
                        target, ends, strategy, stream(), timer);
    }

    void upload_constants() override { upload_hog_constants(cascade_, stream()); }

    HogCascade cascade_;
    HogGpuOptions options_;
    bool reads_pixels_;  // the model has Dalal-Triggs blocks or LBP-histogram learners

    // Per frame size.
    HogFrameLayout layout_;
    DeviceBuffer<GpuLevel> word_levels_;
    DeviceBuffer<std::uint8_t> pixels_;
    DeviceBuffer<std::uint32_t> integrals_;
};

}  // namespace

HogGpuDetector::HogGpuDetector(const HogCascade& cascade, const HogGpuOptions& options)
    : GpuDetector(std::make_unique<HogCore>(cascade, options)), options_(options) {}

}  // namespace cascade::gpu
