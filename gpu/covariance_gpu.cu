#include "gpu/covariance_gpu.hpp"

#include <cmath>
#include <cstring>
#include <cub/device/device_reduce.cuh>

#include "gpu/cuda_check.hpp"

namespace cascade::gpu {

namespace {

// One thread per window; D, the layout's dimension, a template argument so that the matrices stay in registers.
template <int D>
__global__ void covariance_windows(CovarianceIntegralView view, Size window, int step, int map_w, int map_h,
                                   const double* target, CovMetric metric, float* out) {
    const int col = blockIdx.x * blockDim.x + threadIdx.x, row = blockIdx.y * blockDim.y + threadIdx.y;
    if (col >= map_w || row >= map_h) return;
    out[static_cast<std::size_t>(row) * map_w + col] = static_cast<float>(
        window_distance<D>(view, col * step, row * step, window.width, window.height, target, metric));
}

}  // namespace

CovarianceMatcherGpu::CovarianceMatcherGpu(CovarianceLayout layout, const std::vector<double>& target,
                                           CovMetric metric)
    : layout_(layout), metric_(metric) {
    copy_to_device(target_, target, stream_.get());
    best_.resize(2);
    best_host_.resize(2);
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

// Plane by plane: the host copy into staging (unless the caller wrote it there), then its upload, which runs while
// the next plane is copied.
void CovarianceMatcherGpu::upload(const MatchPlanes& colour, const GrayView& grey) {
    const int w = grey.width, h = grey.height, channels = colour.channels;
    const std::size_t plane = static_cast<std::size_t>(w) * h;
    std::uint8_t* host = staging({w, h});
    CASCADE_CUDA_CHECK(cudaEventSynchronize(uploaded_.get()));  // the last frame's upload has read staging
    pixels_.resize(plane * (channels + 1));
    for (int c = 0; c <= channels; ++c) {
        const GrayView& source = c < channels ? colour.planes[c] : grey;
        std::uint8_t* staged = host + c * plane;
        if (source.data != staged && source.stride == w) std::memcpy(staged, source.data, plane);
        else if (source.data != staged)
            for (int y = 0; y < h; ++y)
                std::memcpy(staged + static_cast<std::size_t>(y) * w,
                            source.data + static_cast<std::ptrdiff_t>(y) * source.stride, static_cast<std::size_t>(w));
        CASCADE_CUDA_CHECK(
            cudaMemcpyAsync(pixels_.get() + c * plane, staged, plane, cudaMemcpyHostToDevice, stream_.get()));
    }
    uploaded_.record(stream_.get());
}

void CovarianceMatcherGpu::enqueue(const MatchPlanes& colour, const GrayView& grey, const std::vector<Size>& windows,
                                   int step) {
    const int width = grey.width, height = grey.height, channels = colour.channels;
    const std::size_t plane = static_cast<std::size_t>(width) * height;
    timer_.reset(timing_);
    upload(colour, grey);
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
    scores_.resize(total);
    const auto kernel = layout_.dim() == 3 ? covariance_windows<3> : layout_.dim() == 5 ? covariance_windows<5>
                        : layout_.dim() == 7 ? covariance_windows<7> : covariance_windows<9>;
    std::size_t offset = 0;
    for (std::size_t s = 0; s < windows.size(); ++s) {
        const ScoreMap& m = maps_[s];
        const dim3 block(32, 4), grid((m.width + 31) / 32, (m.height + 3) / 4);
        timer_.begin("windows " + std::to_string(windows[s].width) + "x" + std::to_string(windows[s].height),
                     stream_.get());
        kernel<<<grid, block, 0, stream_.get()>>>(integrals_.view(), windows[s], step, m.width, m.height,
                                                  target_.get(), metric_, scores_.get() + offset);
        CASCADE_CUDA_CHECK(cudaGetLastError());
        timer_.end(stream_.get());
        offset += static_cast<std::size_t>(m.width) * m.height;
    }
}

std::vector<ScoreMap> CovarianceMatcherGpu::search(const MatchPlanes& colour, const GrayView& grey,
                                                   const std::vector<Size>& windows, int step) {
    enqueue(colour, grey, windows, step);
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
                                 int step) {
    enqueue(colour, grey, windows, step);
    const cudaStream_t s = stream_.get();
    std::int64_t total = 0;
    for (const ScoreMap& m : maps_) total += static_cast<std::int64_t>(m.width) * m.height;
    float* value = reinterpret_cast<float*>(best_.get() + 1);
    timer_.begin("best", s);
    std::size_t bytes = 0;
    CASCADE_CUDA_CHECK(cub::DeviceReduce::ArgMin(nullptr, bytes, scores_.get(), value, best_.get(), total, s));
    reduce_storage_.resize(bytes);
    CASCADE_CUDA_CHECK(cub::DeviceReduce::ArgMin(reduce_storage_.get(), bytes, scores_.get(), value, best_.get(), total, s));
    timer_.end(s);
    CASCADE_CUDA_CHECK(
        cudaMemcpyAsync(best_host_.get(), best_.get(), 2 * sizeof(std::int64_t), cudaMemcpyDeviceToHost, s));
}

CovarianceBest CovarianceMatcherGpu::finish_best() {
    CASCADE_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
    std::int64_t index = best_host_.get()[0], total = 0;
    CovarianceBest best;
    std::memcpy(&best.distance, best_host_.get() + 1, sizeof best.distance);
    for (const ScoreMap& m : maps_) total += static_cast<std::int64_t>(m.width) * m.height;
    if (index < 0 || index >= total) {  // no distance under FLT_MAX (none is: covariances are regularised)
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
