#include "gpu/haar_gpu_detector.hpp"

#include <algorithm>
#include <atomic>

#include "common/error.hpp"
#include "common/haar_eval.hpp"
#include "gpu/detector_core.hpp"
#include "gpu/haar_cascade_gpu.hpp"
#include "gpu/pyramid_gpu.hpp"

namespace cascade::gpu {

namespace {

// Which Haar detector's model prefix the Haar kernels' constant memory holds (gpu/haar_cascade_gpu.hpp).
ConstantOwner g_constant_owner;

// The Haar family's planes: the exact pyramid's level pixels and each level's three integral tables.
class HaarCore final : public DetectorCore {
public:
    HaarCore(const HaarCascade& cascade, const HaarGpuOptions& options)
        : DetectorCore(options, cascade.stages, cascade.policy, g_constant_owner), cascade_(cascade), options_(options) {
        if (options.mode != PyramidMode::exact)
            throw InputError("GPU detector", "Haar cascades run with the exact pyramid only");
        copy_to_device(stages_, cascade.stages, stream());
        copy_to_device(weaks_, cascade.weaks, stream());
        copy_to_device(nodes_, cascade.nodes, stream());
        copy_to_device(leaves_, cascade.leaves, stream());
        exact_sums_ = exact_stage_sums(cascade);
        constant_ = haar_constant_prefix(cascade);
        tilted_features_ = std::any_of(cascade.nodes.begin(), cascade.nodes.end(),
                                       [](const HaarNode& n) { return n.feature.tilted != 0; });
        claim_constants();
    }

private:
    const FrameLayout& make_layout(Size frame) override {
        layout_ = cascade::gpu::make_layout(frame, cascade_.window, options_.pyramid, options_.rule,
                                            LayoutMode::exact);
        return layout_;
    }

    void allocate_planes(const DeviceFrame&) override {
        const cudaStream_t s = stream();
        const auto n = static_cast<std::size_t>(std::max<long long>(layout_.integral_elements, 1));
        for (DeviceBuffer<std::uint32_t>* table : {&sums_, &squares_, &tilted_}) {
            if (table == &tilted_ && !tilted_features_) continue;  // never built nor read
            table->resize(n);
            // Row 0 and column 0 stay zero: the kernels write rows 1..height (columns 1..width of sums and squares).
            CASCADE_CUDA_CHECK(cudaMemsetAsync(table->get(), 0, n * sizeof(std::uint32_t), s));
        }
        // Without a tilted table the tables are written in one pass, from the column sums above each band.
        if (!tilted_features_) carries_.resize(2 * static_cast<std::size_t>(std::max<long long>(layout_.pixel_bytes, 1)));
        factors_.resize(n);
        level_pixels_.resize(static_cast<std::size_t>(std::max<long long>(layout_.pixel_bytes, 1)));
        CASCADE_CUDA_CHECK(cudaMemsetAsync(level_pixels_.get(), 0, static_cast<std::size_t>(layout_.pixel_bytes), s));
    }

    void build_planes(const DeviceFrame& frame, Compaction, KernelTimer& timer) override {
        const int levels = static_cast<int>(layout_.gpu.size());
        build_exact_levels({frame.levels, levels, layout_.strips, level_pixels_.get()}, frame.pixels, frame.taps_x,
                           frame.taps_y, stream(), timer);
        int max_width = 0, max_height = 0;
        for (const GpuLevel& l : layout_.gpu) {
            max_width = std::max(max_width, l.width);
            max_height = std::max(max_height, l.height);
        }
        build_haar_integrals({frame.levels, levels, layout_.rows, layout_.strips, max_width, max_height,
                              level_pixels_.get(), sums_.get(), squares_.get(), tilted(),
                              tilted_features_ ? nullptr : carries_.get(), static_cast<std::size_t>(layout_.pixel_bytes)},
                             stream(), timer);
    }

    void run_cascade(const CascadeTarget& target, const std::vector<int>& ends, Compaction strategy,
                     KernelTimer& timer) override {
        const HaarPlanes planes{cascade_.window, cascade_.policy, stages_.get(), weaks_.get(),
                                nodes_.get(),    leaves_.get(),   sums_.get(),   squares_.get(),
                                tilted(),        factors_.get(),  exact_sums_,
                                constant_.stages};
        run_haar_cascade(planes, target, ends, strategy, stream(), timer);
    }

    // The whole model is in global memory, uploaded once; its first stages also in constant memory.
    void upload_constants() override { upload_haar_constants(cascade_, constant_, stream()); }

    std::uint32_t* tilted() { return tilted_features_ ? tilted_.get() : nullptr; }

    HaarCascade cascade_;
    HaarGpuOptions options_;
    DeviceBuffer<Stage> stages_;
    DeviceBuffer<HaarTree> weaks_;
    DeviceBuffer<HaarNode> nodes_;
    DeviceBuffer<float> leaves_;
    bool tilted_features_ = false;  // whether any node's feature is tilted: else no tilted table
    bool exact_sums_ = false;       // common/haar_eval.hpp exact_stage_sums
    HaarConstantPrefix constant_;   // what upload_constants copies
    // Per frame size.
    FrameLayout layout_;
    DeviceBuffer<std::uint8_t> level_pixels_;
    DeviceBuffer<std::uint32_t> sums_, squares_, tilted_;
    DeviceBuffer<std::uint32_t> carries_;  // HaarIntegralTarget::carries
    DeviceBuffer<float> factors_;          // HaarPlanes::factors
};

}  // namespace

HaarGpuDetector::HaarGpuDetector(const HaarCascade& cascade, const HaarGpuOptions& options)
    : GpuDetector(std::make_unique<HaarCore>(cascade, options)), options_(options) {}

}  // namespace cascade::gpu
