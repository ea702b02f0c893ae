#include "gpu/lbp_gpu_detector.hpp"

#include <atomic>
#include <stdexcept>

#include "common/error.hpp"
#include "common/lbp_tables.hpp"
#include "common/packed_model.hpp"
#include "gpu/detector_core.hpp"
#include "gpu/lbp_cascade_gpu.hpp"
#include "gpu/pyramid_gpu.hpp"

namespace cascade::gpu {

namespace {

// Which LBP detector's model the LBP kernels' constant memory holds (gpu/detector_core.hpp).
ConstantOwner g_constant_owner;

// The LBP family's planes: the pyramid's level pixels and integral images (exact mode), or the octave canvas
// and its integral images read through a texture (texture mode).
class LbpCore final : public DetectorCore {
public:
    LbpCore(const LbpCascade& cascade, const std::vector<std::uint32_t>& stumps, const LbpGpuOptions& options)
        : DetectorCore(options, supported(cascade).stages, cascade.policy, g_constant_owner),
          cascade_(cascade),
          options_(options) {
        if (options.shared_carveout > 100) throw InputError("GPU detector", "shared_carveout is a percentage");
        if (options.warp_tail < 0) throw InputError("GPU detector", "warp_tail must be >= 0");
        if (!stumps.empty() && stumps.size() != cascade.weaks.size() * kStumpWords)
            throw std::invalid_argument("LbpGpuDetector: stump tables of another model");
        copy_to_device(responses_, cascade.responses, stream());
        copy_to_device(stumps_, stumps, stream());
        claim_constants();
    }

private:
    // The cascade, checked before the GPU is touched.
    static const LbpCascade& supported(const LbpCascade& cascade) {
        check_gpu_supported(cascade);
        return cascade;
    }

    const FrameLayout& make_layout(Size frame) override {
        const LayoutMode mode = options_.mode == PyramidMode::exact ? LayoutMode::exact : LayoutMode::texture;
        layout_ = cascade::gpu::make_layout(frame, cascade_.window, options_.pyramid, options_.rule, mode);
        return layout_;
    }

    void allocate_planes(const DeviceFrame&) override {
        const cudaStream_t s = stream();
        const std::vector<TileWeak> weaks =
            tile_weaks(cascade_, stumps_.size() > 0, tile_pitch(layout_.max_step, cascade_.window));
        copy_to_device(tile_weak_table_, weaks, s);
        integrals_.resize(static_cast<std::size_t>(layout_.integral_elements));
        CASCADE_CUDA_CHECK(cudaMemsetAsync(integrals_.get(), 0, layout_.integral_elements * sizeof(std::uint32_t), s));
        if (options_.mode == PyramidMode::exact) {
            level_pixels_.resize(static_cast<std::size_t>(std::max<long long>(layout_.pixel_bytes, 1)));
            // Row padding is never read; zeroed all the same, so that no byte of the buffer is undefined.
            CASCADE_CUDA_CHECK(
                cudaMemsetAsync(level_pixels_.get(), 0, static_cast<std::size_t>(layout_.pixel_bytes), s));
        } else {
            canvas_pitch_ = texture_pitch(layout_.canvas.width);
            const std::size_t bytes = canvas_pitch_ * std::max(layout_.canvas.height, 1);
            canvas_.resize(bytes);
            CASCADE_CUDA_CHECK(cudaMemsetAsync(canvas_.get(), 0, bytes, s));
            canvas_texture_ = TextureObject::bilinear_u8(canvas_.get(), layout_.canvas, canvas_pitch_);
            integral_texture_ =
                TextureObject::linear_u32(integrals_.get(), static_cast<std::size_t>(layout_.integral_elements));
        }
        CASCADE_CUDA_CHECK(cudaStreamSynchronize(s));  // `weaks` goes out of scope
    }

    // Whether `strategy` integrates its tiles from level pixels (then the pyramid builds no integral images).
    bool tiles_from_pixels(Compaction strategy) const {
        return options_.mode == PyramidMode::exact && options_.integral_tiles &&
               strategy == Compaction::shared_atomic &&
               shared_tiles_fit(layout_.max_step, cascade_.window, cascade_.policy);
    }

    void build_planes(const DeviceFrame& frame, Compaction strategy, KernelTimer& timer) override {
        const int levels = static_cast<int>(layout_.gpu.size());
        const IntegralTarget target{frame.levels, levels, layout_.rows, layout_.strips, integrals_.get()};
        if (tiles_from_pixels(strategy))
            build_exact_levels({frame.levels, levels, layout_.strips, level_pixels_.get()}, frame.pixels, frame.taps_x,
                               frame.taps_y, stream(), timer);
        else if (options_.mode == PyramidMode::exact)
            build_exact_pyramid(target, frame.pixels, frame.taps_x, frame.taps_y, stream(), timer);
        else
            build_texture_pyramid(target, frame.texture, layout_.frame,
                                  {canvas_.get(), canvas_pitch_, canvas_texture_.get()}, layout_.gpu,
                                  layout_.octave_begin, stream(), timer);
    }

    void run_cascade(const CascadeTarget& target, const std::vector<int>& ends, Compaction strategy,
                     KernelTimer& timer) override {
        const bool texture = options_.mode == PyramidMode::texture;
        const LbpPlanes planes{cascade_.window,
                               cascade_.policy,
                               responses_.get(),
                               tile_weak_table_.get(),
                               stumps_.size() > 0 ? stumps_.get() : nullptr,
                               layout_.max_step,
                               options_.integral_tiles,
                               options_.shared_carveout,
                               options_.warp_tail,
                               integrals_.get(),
                               tiles_from_pixels(strategy) ? level_pixels_.get() : nullptr,
                               texture ? integral_texture_.get() : 0};
        run_lbp_cascade(planes, target, ends, strategy, stream(), timer);
    }

    void upload_constants() override { upload_lbp_constants(cascade_, stream()); }

    LbpCascade cascade_;
    LbpGpuOptions options_;
    DeviceBuffer<float> responses_;
    DeviceBuffer<std::uint32_t> stumps_;  // empty: the model runs on its tables

    // Per frame size.
    FrameLayout layout_;
    DeviceBuffer<TileWeak> tile_weak_table_;  // the weak learners for this layout's tile pitch
    DeviceBuffer<std::uint32_t> integrals_;
    DeviceBuffer<std::uint8_t> level_pixels_;  // exact mode: for the shared-memory strategy's own tile integrals
    DeviceBuffer<std::uint8_t> canvas_;
    std::size_t canvas_pitch_ = 0;
    TextureObject canvas_texture_, integral_texture_;
};

}  // namespace

LbpGpuDetector::LbpGpuDetector(const LbpCascade& cascade, const std::vector<std::uint32_t>& stumps,
                               const LbpGpuOptions& options)
    : GpuDetector(std::make_unique<LbpCore>(cascade, stumps, options)), options_(options) {}

LbpGpuDetector::LbpGpuDetector(const LbpCascade& cascade, const LbpGpuOptions& options)
    : LbpGpuDetector(cascade, stump_tables(cascade), options) {}

}  // namespace cascade::gpu
