#include "gpu/hog_cascade_gpu.hpp"

#include <type_traits>

#include "common/hog_eval.hpp"
#include "gpu/cascade_kernels.cuh"
#include "gpu/constant_tables.cuh"

namespace cascade::gpu {

namespace {

// Stages and weak learners (block, 36 weights, bias, response): the threads of a warp evaluate the same weak
// learner at the same time, so constant memory broadcasts every weight.
__constant__ Stage c_stages[kMaxHogGpuStages];
__constant__ HogWeak c_weaks[kMaxHogGpuWeaks];

// A level's integral histograms in global memory, through the read-only cache: the Sampler of hog_eval.hpp.
struct HistogramSampler {
    const std::uint32_t* data;
    int stride;
    __device__ __forceinline__ std::uint32_t at(int x, int y, int bin) const {
        return __ldg(data + y * stride + x * kHogBins + bin);
    }
};

// The same and the level's image, whose gradients (plain or gamma-corrected) Dalal-Triggs blocks read
// (common/hog_features.hpp's hog_gradient: the CPU's gradient planes) and whose pixels' uniform-LBP bins
// LBP-histogram learners read (common/lbp_uniform.hpp: the CPU's bin plane, each bin computed where it is read:
// only the final stage's survivors read any), for models that have such learners: a model without them runs
// kernels without that code, which would take registers from every learner.
struct GradientSampler : HistogramSampler {
    GrayView image;
    __device__ __forceinline__ GradientPair gradient(int x, int y) const { return hog_gradient(image, x, y); }
    __device__ __forceinline__ GradientPair gamma_gradient(int x, int y) const {
        return hog_gradient(image, x, y, true);
    }
    __device__ __forceinline__ std::uint8_t lbp_bin(int x, int y) const {
        return static_cast<std::uint8_t>(lbp_uniform_bin(lbp_pixel_code(image, image.width, image.height, x, y)));
    }
};

// The HoG window source (gpu/cascade_kernels.cuh). A weak learner reads 81 corners of 9 bins, takes a square
// root and a division: survivors are evaluated one warp per window, a stage's weak learners side by side.
template <class Sampler>
struct HogSource : FamilyWindows<HogFamily> {
    static constexpr int kFirstWarpGroup = 1;
    static constexpr int kFirstBlockGroup = kNoWarpGroup;
    static constexpr int kFirstTeamGroup = kNoWarpGroup;
    static constexpr int kSharedThreads = 256;
    static constexpr int kSharedMinBlocks = 2;

    const std::uint32_t* integrals;
    const std::uint8_t* pixels;  // read by GradientSampler only
    int pitch;
    int tile_pitch;  // nothing is tiled: the shared-memory strategy's bank order is immaterial

    __device__ __forceinline__ View view() const { return view_over<View>(c_stages, c_weaks); }
    __device__ __forceinline__ Sampler level(const GpuLevel& l) const {
        const HistogramSampler histograms{integrals + l.integral_offset, l.integral_stride};
        if constexpr (std::is_same_v<Sampler, HistogramSampler>) {
            return histograms;
        } else {
            return {histograms, {pixels + static_cast<std::size_t>(l.first_row) * pitch, l.width, l.height, pitch}};
        }
    }
    __device__ __forceinline__ Sampler block(const GpuLevel& l, int, int, int, std::uint32_t*) const { return level(l); }
};

}  // namespace

void upload_hog_constants(const HogCascade& cascade, cudaStream_t stream) {
    upload_cascade_constants(cascade, c_stages, c_weaks, stream);
}

void run_hog_cascade(const HogPlanes& p, const CascadeTarget& t, const std::vector<int>& ends, Compaction compaction,
                     cudaStream_t stream, KernelTimer& timer) {
    const KernelTuning tuning{0, 0, -1, 0};
    if (p.reads_pixels) {
        const HogSource<GradientSampler> source{{{p.window, p.policy, t.num_stages}}, p.integrals, p.pixels, p.pitch, 1};
        launch_cascade(source, t, tuning, ends, compaction, stream, timer);
    } else {
        const HogSource<HistogramSampler> source{{{p.window, p.policy, t.num_stages}}, p.integrals, p.pixels, p.pitch, 1};
        launch_cascade(source, t, tuning, ends, compaction, stream, timer);
    }
}

}  // namespace cascade::gpu
