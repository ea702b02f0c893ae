#include "gpu/covariance_gpu.hpp"

#include <cmath>
#include <cstring>
#include <cub/block/block_reduce.cuh>
#include <cuda/functional>

#include "common/error.hpp"
#include "gpu/cuda_check.hpp"

namespace cascade::gpu {

namespace {

constexpr int kWindowBlock = 256;
constexpr int kSizesPerLaunch = 32;

// The window sizes of one launch (one launch for all of them: a size's few thousand windows alone would leave
// most of the card idle). Block b computes windows of the size s with first_block[s] <= b < first_block[s + 1].
struct WindowLaunch {
    int sizes = 0;
    int first_block[kSizesPerLaunch + 1] = {};
    int width[kSizesPerLaunch] = {}, height[kSizesPerLaunch] = {}, map_width[kSizesPerLaunch] = {};
    int count[kSizesPerLaunch] = {};                  // windows of the size
    unsigned offset[kSizesPerLaunch] = {};            // its first window's index in all maps
};

// A window's key for the best window: its distance's bits in an order-preserving form (the high half), its index
// in all maps (the low half); the smallest key is the smallest distance and, among equals, the first window.
__device__ unsigned long long best_key(float distance, unsigned index) {
    const unsigned bits = __float_as_uint(distance == 0 ? 0.f : distance);  // -0 as +0
    const unsigned ordered = bits & 0x80000000u ? ~bits : bits | 0x80000000u;
    return static_cast<unsigned long long>(ordered) << 32 | index;
}

// One thread per window; D, the layout's dimension, a template argument so that the matrices stay in registers.
// With `best`, each block's smallest key goes into *best by atomicMin.
template <int D>
__global__ void __launch_bounds__(kWindowBlock)
    covariance_windows(CovarianceIntegralView view, WindowLaunch launch, int step, const SpdTarget* target,
                       CovMetric metric, float* out, unsigned long long* best) {
    int s = 0;
    while (static_cast<int>(blockIdx.x) >= launch.first_block[s + 1]) ++s;
    const int i = (static_cast<int>(blockIdx.x) - launch.first_block[s]) * kWindowBlock + static_cast<int>(threadIdx.x);
    unsigned long long key = ~0ull;
    if (i < launch.count[s]) {
        const int row = i / launch.map_width[s], col = i - row * launch.map_width[s];
        const float distance = static_cast<float>(window_distance<D>(
            view, col * step, row * step, launch.width[s], launch.height[s], *target, metric));
        out[launch.offset[s] + i] = distance;
        key = best_key(distance, launch.offset[s] + static_cast<unsigned>(i));
    }
    if (!best) return;  // the same for the whole block
    using Reduce = cub::BlockReduce<unsigned long long, kWindowBlock>;
    __shared__ typename Reduce::TempStorage temp;
    const unsigned long long block_best = Reduce(temp).Reduce(key, cuda::minimum<>{});
    if (threadIdx.x == 0) atomicMin(best, block_best);
}

}  // namespace

CovarianceMatcherGpu::CovarianceMatcherGpu(CovarianceLayout layout, const std::vector<double>& target,
                                           CovMetric metric)
    : layout_(layout), metric_(metric) {
    copy_to_device(target_, std::vector<SpdTarget>{spd_target(target.data(), layout.dim())}, stream_.get());
    best_.resize(1);
    best_host_.resize(1);
    CASCADE_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
}

std::uint8_t* CovarianceMatcherGpu::staging(Size size) {
    if (size.width != staged_.width || size.height != staged_.height) {
        CASCADE_CUDA_CHECK(cudaEventSynchronize(uploaded_.get()));  // no upload reads the old layout any more
        staging_.resize(static_cast<std::size_t>(size.width) * size.height * (layout_.channels + 1));
        staged_ = size;
    }
    return staging_.get();
}

// Strip by strip (bands of rows of every plane): the strip written into staging (by `fill`, or copied from the
// caller's planes unless they lie there already), then its upload queued, which runs while the next strip is
// written. A frame is written and uploaded in some 0.2 ms each (2048x1152, 4 planes), so strips hide most of one.
void CovarianceMatcherGpu::upload(const MatchPlanes& colour, const GrayView& grey, const StagingFill& fill) {
    constexpr int kStrips = 4;
    const int w = grey.width, h = grey.height, channels = colour.channels;
    const std::size_t plane = static_cast<std::size_t>(w) * h;
    std::uint8_t* host = staging({w, h});
    CASCADE_CUDA_CHECK(cudaEventSynchronize(uploaded_.get()));  // the last frame's upload has read staging
    pixels_.resize(plane * (channels + 1));
    for (int strip = 0; strip < kStrips; ++strip) {
        const int top = strip * h / kStrips, rows = (strip + 1) * h / kStrips - top;
        if (rows == 0) continue;
        if (fill) fill(top, rows);
        const std::size_t first = static_cast<std::size_t>(top) * w, bytes = static_cast<std::size_t>(rows) * w;
        for (int c = 0; c <= channels; ++c) {
            const GrayView& source = c < channels ? colour.planes[c] : grey;
            std::uint8_t* staged = host + c * plane;
            if (source.data != staged && source.stride == w) std::memcpy(staged + first, source.data + first, bytes);
            else if (source.data != staged)
                for (int y = top; y < top + rows; ++y)
                    std::memcpy(staged + static_cast<std::size_t>(y) * w,
                                source.data + static_cast<std::ptrdiff_t>(y) * source.stride,
                                static_cast<std::size_t>(w));
            CASCADE_CUDA_CHECK(cudaMemcpyAsync(pixels_.get() + c * plane + first, staged + first, bytes,
                                               cudaMemcpyHostToDevice, stream_.get()));
        }
    }
    uploaded_.record(stream_.get());
}

void CovarianceMatcherGpu::enqueue(const MatchPlanes& colour, const GrayView& grey, const std::vector<Size>& windows,
                                   int step, bool with_best, const StagingFill& fill) {
    const int width = grey.width, height = grey.height, channels = colour.channels;
    const std::size_t plane = static_cast<std::size_t>(width) * height;
    timer_.reset(timing_);
    upload(colour, grey, fill);
    MatchPlanes device_colour;
    device_colour.channels = channels;
    for (int c = 0; c < channels; ++c) device_colour.planes[c] = {pixels_.get() + c * plane, width, height, width};
    const GrayView device_grey{pixels_.get() + channels * plane, width, height, width};
    integrals_.build(device_colour, device_grey, layout_, stream_.get(), timer_);

    maps_.assign(windows.size(), ScoreMap{});
    std::size_t total = 0;
    for (std::size_t s = 0; s < windows.size(); ++s) {
        maps_[s].step = step;
        maps_[s].width = (width - windows[s].width) / step + 1;
        maps_[s].height = (height - windows[s].height) / step + 1;
        total += static_cast<std::size_t>(maps_[s].width) * maps_[s].height;
    }
    if (total > UINT32_MAX) throw InputError("region covariance", "over 2^32 windows in one frame");
    scores_.resize(total);
    if (with_best) CASCADE_CUDA_CHECK(cudaMemsetAsync(best_.get(), 0xff, sizeof(unsigned long long), stream_.get()));
    const auto kernel = layout_.dim() == 3 ? covariance_windows<3> : layout_.dim() == 5 ? covariance_windows<5>
                        : layout_.dim() == 7 ? covariance_windows<7> : covariance_windows<9>;
    timer_.begin("windows", stream_.get());
    unsigned offset = 0;
    for (std::size_t first = 0; first < windows.size(); first += kSizesPerLaunch) {
        WindowLaunch launch;
        for (std::size_t s = first; s < windows.size() && launch.sizes < kSizesPerLaunch; ++s, ++launch.sizes) {
            const int k = launch.sizes;
            launch.width[k] = windows[s].width;
            launch.height[k] = windows[s].height;
            launch.map_width[k] = maps_[s].width;
            launch.count[k] = maps_[s].width * maps_[s].height;
            launch.offset[k] = offset;
            launch.first_block[k + 1] = launch.first_block[k] + (launch.count[k] + kWindowBlock - 1) / kWindowBlock;
            offset += static_cast<unsigned>(launch.count[k]);
        }
        kernel<<<launch.first_block[launch.sizes], kWindowBlock, 0, stream_.get()>>>(
            integrals_.view(), launch, step, target_.get(), metric_, scores_.get(), with_best ? best_.get() : nullptr);
        CASCADE_CUDA_CHECK(cudaGetLastError());
    }
    timer_.end(stream_.get());
}

std::vector<ScoreMap> CovarianceMatcherGpu::search(const MatchPlanes& colour, const GrayView& grey,
                                                   const std::vector<Size>& windows, int step,
                                                   const StagingFill& fill) {
    enqueue(colour, grey, windows, step, false, fill);
    std::vector<ScoreMap> maps = maps_;
    std::size_t offset = 0;
    for (ScoreMap& m : maps) {
        m.scores.resize(static_cast<std::size_t>(m.width) * m.height);
        CASCADE_CUDA_CHECK(cudaMemcpyAsync(m.scores.data(), scores_.get() + offset, m.scores.size() * sizeof(float),
                                           cudaMemcpyDeviceToHost, stream_.get()));
        offset += m.scores.size();
    }
    CASCADE_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
    return maps;
}

void CovarianceMatcherGpu::start(const MatchPlanes& colour, const GrayView& grey, const std::vector<Size>& windows,
                                 int step, const StagingFill& fill) {
    enqueue(colour, grey, windows, step, true, fill);
    CASCADE_CUDA_CHECK(cudaMemcpyAsync(best_host_.get(), best_.get(), sizeof(unsigned long long),
                                       cudaMemcpyDeviceToHost, stream_.get()));
}

CovarianceBest CovarianceMatcherGpu::finish_best() {
    CASCADE_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
    const unsigned long long key = best_host_.get()[0];
    const unsigned ordered = static_cast<unsigned>(key >> 32), bits = ordered & 0x80000000u ? ordered & 0x7fffffffu : ~ordered;
    std::int64_t index = static_cast<std::int64_t>(key & 0xffffffffu);
    CovarianceBest best;
    std::memcpy(&best.distance, &bits, sizeof best.distance);
    if (!(best.distance < INFINITY)) {  // no finite distance (none is: covariances are regularised)
        index = 0;
        best.distance = INFINITY;
    }
    for (std::size_t s = 0; s < maps_.size(); ++s) {
        const std::int64_t count = static_cast<std::int64_t>(maps_[s].width) * maps_[s].height;
        if (index < count) {
            best.window = static_cast<int>(s);
            best.x = static_cast<int>(index % maps_[s].width) * maps_[s].step;
            best.y = static_cast<int>(index / maps_[s].width) * maps_[s].step;
            break;
        }
        index -= count;
    }
    return best;
}

std::vector<std::int64_t> CovarianceMatcherGpu::integrals() const {
    std::vector<std::int64_t> out(integrals_.elements());
    CASCADE_CUDA_CHECK(cudaMemcpy(out.data(), integrals_.view().data, out.size() * sizeof(std::int64_t),
                                  cudaMemcpyDeviceToHost));
    return out;
}

}  // namespace cascade::gpu
