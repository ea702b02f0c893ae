#include "gpu/covariance_gpu.hpp"

#include "gpu/cuda_check.hpp"
#include "gpu/plane_upload.hpp"

namespace cascade::gpu {

namespace {

constexpr int kRowThreads = 256;

// One block per image row y: the row's features, every plane prefix-summed along the row into integral row y + 1
// (column 0 and, in block 0, row 0 set to zero). Each chunk of kRowThreads pixels: every plane scanned within
// each warp by shuffles, the warps' totals combined through shared memory: two barriers per chunk for all planes;
// the chunk's sums staged in shared memory (kRowThreads x planes int64, dynamic) and stored as one contiguous run.
// D = layout.dim(), a template argument so that the planes' running sums stay in registers.
template <int D>
__global__ void __launch_bounds__(kRowThreads)
    covariance_rows(MatchPlanes colour, GrayView grey, CovarianceLayout layout, std::int64_t* sums) {
    constexpr int kWarps = kRowThreads / 32, planes = D + D * (D + 1) / 2, d = D;
    __shared__ long long warp_totals[kWarps][planes];
    __shared__ long long carry[planes];
    extern __shared__ long long staged[];
    const int y = blockIdx.x, width = grey.width;
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const std::size_t stride = static_cast<std::size_t>(width + 1) * planes;  // elements per integral row
    for (int k = threadIdx.x; k < planes; k += kRowThreads) {
        carry[k] = 0;
        sums[(y + 1) * stride + k] = 0;
    }
    if (y == 0)
        for (std::size_t i = threadIdx.x; i < stride; i += kRowThreads) sums[i] = 0;
    for (int x0 = 0; x0 < width; x0 += kRowThreads) {
        const int x = x0 + threadIdx.x;
        int f[max_cov_features] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
        if (x < width) pixel_features(colour, grey, layout, x, y, f);
        long long running[planes];
#pragma unroll
        for (int k = 0, i = 0, j = 0; k < planes; ++k) {  // plane k: f_k for k < d, then f_i f_j (i <= j)
            long long value = 0;
            if (k < d) {
                value = f[k];
            } else {
                value = static_cast<long long>(f[i]) * f[j];
                if (++j == d) j = ++i;
            }
            for (int offset = 1; offset < 32; offset <<= 1) {
                const long long n = __shfl_up_sync(0xffffffffu, value, offset);
                if (lane >= offset) value += n;
            }
            running[k] = value;
            if (lane == 31) warp_totals[warp][k] = value;
        }
        __syncthreads();  // the warps' totals, the carry and the previous chunk's stores are complete
#pragma unroll
        for (int k = 0; k < planes; ++k) {
            long long before = carry[k];
            for (int w = 0; w < warp; ++w) before += warp_totals[w][k];
            staged[threadIdx.x * planes + k] = before + running[k];
        }
        long long chunk = 0;  // this chunk's total of plane threadIdx.x
        if (threadIdx.x < planes)
            for (int w = 0; w < kWarps; ++w) chunk += warp_totals[w][threadIdx.x];
        __syncthreads();  // every thread has read carry and the totals, and staged its sums
        if (threadIdx.x < planes) carry[threadIdx.x] += chunk;
        std::int64_t* out = sums + (y + 1) * stride + static_cast<std::size_t>(x0 + 1) * planes;
        const int count = min(kRowThreads, width - x0) * planes;
        for (int i = threadIdx.x; i < count; i += kRowThreads) out[i] = staged[i];
    }
}

// Running sums down every column of every plane: thread i owns element i of each integral row. Rows are read
// kBatch at a time before any is written, so that each thread keeps kBatch loads in flight (the compiler cannot
// move a load above the previous store to the same array by itself).
constexpr int kBatch = 16;

__global__ void covariance_columns(std::int64_t* sums, std::size_t row_elements, int height) {
    const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i >= row_elements) return;
    long long running = 0;
    for (int y0 = 1; y0 <= height; y0 += kBatch) {
        long long values[kBatch];
#pragma unroll
        for (int b = 0; b < kBatch; ++b)
            values[b] = y0 + b <= height ? sums[static_cast<std::size_t>(y0 + b) * row_elements + i] : 0;
#pragma unroll
        for (int b = 0; b < kBatch; ++b) {
            running += values[b];
            if (y0 + b <= height) sums[static_cast<std::size_t>(y0 + b) * row_elements + i] = running;
        }
    }
}

__global__ void covariance_windows(CovarianceIntegralView view, Size window, int step, int map_w, int map_h,
                                   const double* target, CovMetric metric, float* out) {
    const int col = blockIdx.x * blockDim.x + threadIdx.x, row = blockIdx.y * blockDim.y + threadIdx.y;
    if (col >= map_w || row >= map_h) return;
    out[static_cast<std::size_t>(row) * map_w + col] = static_cast<float>(
        window_distance(view, col * step, row * step, window.width, window.height, target, metric));
}

}  // namespace

CovarianceMatcherGpu::CovarianceMatcherGpu(CovarianceLayout layout, const std::vector<double>& target,
                                           CovMetric metric)
    : layout_(layout), metric_(metric) {
    copy_to_device(target_, target, stream_.get());
    CASCADE_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
}

std::vector<ScoreMap> CovarianceMatcherGpu::search(const MatchPlanes& colour, const GrayView& grey,
                                                      const std::vector<Size>& windows, int step) {
    width_ = grey.width;
    height_ = grey.height;
    const std::size_t plane = static_cast<std::size_t>(width_) * height_;
    const int channels = colour.channels;
    GrayView sources[max_match_channels + 1];
    for (int c = 0; c < channels; ++c) sources[c] = colour.planes[c];
    sources[channels] = grey;
    upload_planes(sources, channels + 1, pixels_, stream_.get());
    MatchPlanes device_colour;
    device_colour.channels = channels;
    for (int c = 0; c < channels; ++c) device_colour.planes[c] = {pixels_.get() + c * plane, width_, height_, width_};
    const GrayView device_grey{pixels_.get() + channels * plane, width_, height_, width_};
    const std::size_t row_elements = static_cast<std::size_t>(width_ + 1) * layout_.planes();
    sums_.resize(row_elements * (height_ + 1));

    timer_.reset(timing_);
    timer_.begin("rows", stream_.get());
    const auto rows = layout_.dim() == 3 ? covariance_rows<3> : layout_.dim() == 5 ? covariance_rows<5>
                      : layout_.dim() == 7 ? covariance_rows<7> : covariance_rows<9>;
    const int staged = kRowThreads * layout_.planes() * static_cast<int>(sizeof(std::int64_t));
    CASCADE_CUDA_CHECK(cudaFuncSetAttribute(rows, cudaFuncAttributeMaxDynamicSharedMemorySize, staged));
    rows<<<height_, kRowThreads, staged, stream_.get()>>>(device_colour, device_grey, layout_, sums_.get());
    CASCADE_CUDA_CHECK(cudaGetLastError());
    timer_.end(stream_.get());
    timer_.begin("columns", stream_.get());
    covariance_columns<<<static_cast<unsigned>((row_elements + 255) / 256), 256, 0, stream_.get()>>>(
        sums_.get(), row_elements, height_);
    CASCADE_CUDA_CHECK(cudaGetLastError());
    timer_.end(stream_.get());

    std::vector<ScoreMap> maps(windows.size());
    std::size_t total = 0;
    for (std::size_t s = 0; s < windows.size(); ++s) {
        maps[s].step = step;
        maps[s].width = (width_ - windows[s].width) / step + 1;
        maps[s].height = (height_ - windows[s].height) / step + 1;
        total += static_cast<std::size_t>(maps[s].width) * maps[s].height;
    }
    scores_.resize(total);
    const CovarianceIntegralView view{sums_.get(), width_ + 1, layout_};
    std::size_t offset = 0;
    for (std::size_t s = 0; s < windows.size(); ++s) {
        const ScoreMap& m = maps[s];
        const dim3 block(32, 4), grid((m.width + 31) / 32, (m.height + 3) / 4);
        timer_.begin("windows " + std::to_string(windows[s].width) + "x" + std::to_string(windows[s].height),
                     stream_.get());
        covariance_windows<<<grid, block, 0, stream_.get()>>>(view, windows[s], step, m.width, m.height,
                                                              target_.get(), metric_, scores_.get() + offset);
        CASCADE_CUDA_CHECK(cudaGetLastError());
        timer_.end(stream_.get());
        offset += static_cast<std::size_t>(m.width) * m.height;
    }
    offset = 0;
    for (ScoreMap& m : maps) {
        m.scores.resize(static_cast<std::size_t>(m.width) * m.height);
        CASCADE_CUDA_CHECK(cudaMemcpyAsync(m.scores.data(), scores_.get() + offset, m.scores.size() * sizeof(float),
                                           cudaMemcpyDeviceToHost, stream_.get()));
        offset += m.scores.size();
    }
    CASCADE_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
    return maps;
}

std::vector<std::int64_t> CovarianceMatcherGpu::integrals() const {
    std::vector<std::int64_t> out(static_cast<std::size_t>(width_ + 1) * (height_ + 1) * layout_.planes());
    CASCADE_CUDA_CHECK(cudaMemcpy(out.data(), sums_.get(), out.size() * sizeof(std::int64_t), cudaMemcpyDeviceToHost));
    return out;
}

}  // namespace cascade::gpu
