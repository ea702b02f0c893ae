#include "gpu/hog_features_gpu.hpp"

#include <cub/warp/warp_scan.cuh>

#include "common/hog_features.hpp"
#include "gpu/cuda_check.hpp"
#include "gpu/level_lookup.cuh"
#include "gpu/pyramid_gpu.hpp"
#include "gpu/samplers.cuh"

namespace cascade::gpu {

namespace {

constexpr int kPixelsX = 32, kPixelsY = 8;  // per-pixel kernels: 32 x 8 pixels per block
constexpr int kRowWarps = 8;                // integral rows per block of the row pass
constexpr int kLanePixels = 4;              // consecutive pixels per lane and step of the row pass
constexpr int kStepPixels = 32 * kLanePixels;
constexpr int kLaneWords = kLanePixels * kHogBins;  // 36 histogram words per lane and step
constexpr int kLaneSlot = kLaneWords + 1;           // staging stride: 37 is odd, so lanes hit distinct banks

struct Bins {
    std::uint32_t v[kHogBins];
};
struct BinsSum {
    __device__ __forceinline__ Bins operator()(const Bins& a, const Bins& b) const {
        Bins s;
#pragma unroll
        for (int i = 0; i < kHogBins; ++i) s.v[i] = a.v[i] + b.v[i];
        return s;
    }
};

// The level and the row within it of stacked row `row` (< t.rows).
struct LevelRow {
    GpuLevel level;
    int y;
};
__device__ __forceinline__ LevelRow level_row(const HogFeatureTarget& t, int row) {
    const GpuLevel l = t.levels[find_level(t.levels, t.num_levels, row, &GpuLevel::first_row)];
    return {l, row - l.first_row};
}

// One bilinear fetch at the pixel's centre mapped into the frame (OpenCV's pixel-centre convention).
struct TextureSource {
    cudaTextureObject_t frame;
    Size size;
    __device__ std::uint8_t operator()(const GpuLevel& l, int x, int y) const {
        const float u = (x + 0.5f) * (static_cast<float>(size.width) / l.width);
        const float v = (y + 0.5f) * (static_cast<float>(size.height) / l.height);
        return static_cast<std::uint8_t>(__float2int_rn(tex2D<float>(frame, u, v) * 255.f));
    }
};

template <class Source>
__global__ void __launch_bounds__(kPixelsX * kPixelsY) resample_kernel(HogFeatureTarget t, Source source) {
    const int row = blockIdx.y * kPixelsY + threadIdx.y, x = blockIdx.x * kPixelsX + threadIdx.x;
    if (row >= t.rows) return;
    const LevelRow r = level_row(t, row);
    if (x < r.level.width) t.pixels[static_cast<std::size_t>(row) * t.pitch + x] = source(r.level, x, r.y);
}

// Row pass: corner row y + 1 of the level's table gets, at corner x + 1, the 9 bin sums of the votes of pixels
// 0..x of row y. Per step a lane computes the votes of 4 consecutive pixels (hog_pixel_vote, the CPU's
// function, from the level image: fused here because a separate pass writing and re-reading one vote per
// pixel cost more than the arithmetic), forms their running sums, and adds the exclusive warp prefix of the
// lanes' totals and the carry of the steps before.
__global__ void __launch_bounds__(kRowWarps * 32) integral_rows_kernel(HogFeatureTarget t) {
    using WarpScan = cub::WarpScan<Bins>;
    __shared__ typename WarpScan::TempStorage scan[kRowWarps];
    __shared__ std::uint32_t staged[kRowWarps][32 * kLaneSlot];
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int row = blockIdx.x * kRowWarps + warp;
    if (row >= t.rows) return;
    const LevelRow r = level_row(t, row);
    const int width = r.level.width;
    const GrayView level{t.pixels + static_cast<std::size_t>(r.level.first_row) * t.pitch, width, r.level.height,
                         t.pitch};
    std::uint32_t* out = t.integrals + r.level.integral_offset +
                         static_cast<std::size_t>(r.y + 1) * r.level.integral_stride + kHogBins;  // corner 1
    std::uint32_t* stage = staged[warp];
    Bins carry{};
    for (int x0 = 0; x0 < width; x0 += kStepPixels) {
        const int x = x0 + lane * kLanePixels;
        HogVote vote[kLanePixels];  // pixels past the row's end vote nothing
#pragma unroll
        for (int k = 0; k < kLanePixels; ++k)
            if (x + k < width) vote[k] = hog_pixel_vote(level, x + k, r.y);
        Bins total{};
#pragma unroll
        for (int k = 0; k < kLanePixels; ++k)
#pragma unroll
            for (int b = 0; b < kHogBins; ++b) total.v[b] += vote[k].bin == b ? vote[k].magnitude : 0u;
        Bins inclusive;
        WarpScan(scan[warp]).InclusiveScan(total, inclusive, BinsSum{});
        Bins run;
#pragma unroll
        for (int b = 0; b < kHogBins; ++b) run.v[b] = carry.v[b] + inclusive.v[b] - total.v[b];
#pragma unroll
        for (int k = 0; k < kLanePixels; ++k)
#pragma unroll
            for (int b = 0; b < kHogBins; ++b) {
                run.v[b] += vote[k].bin == b ? vote[k].magnitude : 0u;
                stage[lane * kLaneSlot + k * kHogBins + b] = run.v[b];
            }
#pragma unroll
        for (int b = 0; b < kHogBins; ++b) carry.v[b] += __shfl_sync(0xffffffffu, inclusive.v[b], 31);
        __syncwarp();
        const int words = min(kStepPixels, width - x0) * kHogBins;
        std::uint32_t* dst = out + static_cast<std::size_t>(x0) * kHogBins;
        for (int i = lane; i < words; i += 32) dst[i] = stage[(i / kLaneWords) * kLaneSlot + i % kLaneWords];
        __syncwarp();  // `stage` is rewritten by the next step
    }
}

dim3 pixel_grid(const HogFeatureTarget& t) {
    return dim3((t.max_width + kPixelsX - 1) / kPixelsX, (t.rows + kPixelsY - 1) / kPixelsY);
}

template <class Source>
void resample(const HogFeatureTarget& t, const Source& source, cudaStream_t stream, KernelTimer& timer) {
    if (t.num_levels == 0) return;
    timer.begin("resample", stream);
    resample_kernel<<<pixel_grid(t), dim3(kPixelsX, kPixelsY), 0, stream>>>(t, source);
    CASCADE_CUDA_CHECK(cudaGetLastError());
    timer.end(stream);
}

}  // namespace

void resample_exact(const HogFeatureTarget& t, const GrayView& frame, const ResizeTap* taps_x, const ResizeTap* taps_y,
                    cudaStream_t stream, KernelTimer& timer) {
    resample(t, ExactLevelPixel{frame, taps_x, taps_y}, stream, timer);
}

void resample_texture(const HogFeatureTarget& t, cudaTextureObject_t frame_texture, Size frame, cudaStream_t stream,
                      KernelTimer& timer) {
    resample(t, TextureSource{frame_texture, frame}, stream, timer);
}

void build_integral_histograms(const HogFeatureTarget& t, cudaStream_t stream, KernelTimer& timer) {
    if (t.num_levels == 0) return;
    timer.begin("gradient_integral_rows", stream);
    integral_rows_kernel<<<(t.rows + kRowWarps - 1) / kRowWarps, kRowWarps * 32, 0, stream>>>(t);
    CASCADE_CUDA_CHECK(cudaGetLastError());
    timer.end(stream);
    integral_columns({t.word_levels, t.num_levels, t.rows, t.word_strips, t.integrals}, stream, timer);
}

}  // namespace cascade::gpu
