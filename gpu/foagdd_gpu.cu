#include "gpu/foagdd_gpu.hpp"

#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>

#include "common/foagdd_pixel.hpp"
#include "gpu/cuda_check.hpp"

namespace cascade::gpu {

namespace {

constexpr int kR0 = 9, kN0 = 2 * kR0 + 1;  // the first scale's support (common/foagdd_filters.hpp)
constexpr int kR1 = 15, kN1 = 2 * kR1 + 1;  // sigma 3 and 4.5
constexpr int kBorder = 3;                   // responses are needed 3 pixels around the image (the disc)
constexpr int kBlockW = 32, kBlockH = 8, kRows = 8;  // responses: each thread 8 pixels down a column
constexpr int kTileW = kBlockW + 2 * kR0, kTileH = kBlockH * kRows + 2 * kR0;
constexpr int kScaleThreads = kFoagddOrientations * kFoagddDisc;  // one thread per response at a candidate
constexpr int kPatch = 2 * (kR1 + 3) + 1;  // the image a candidate's larger scales read: 37 x 37

__constant__ float c_taps[kFoagddOrientations * kN0 * kN0];

// The 8 response planes over the image and kBorder pixels around it (pw x ph each, plane (px, py) is image
// (px - 3, py - 3)). The accumulation order per response is foagdd_response's: dx outer, dy inner.
__global__ void __launch_bounds__(kBlockW * kBlockH) responses_kernel(GrayView image, float* planes, int pw, int ph) {
    __shared__ float tile[kTileH][kTileW];
    const int px0 = blockIdx.x * kBlockW, py0 = blockIdx.y * kBlockH * kRows;
    const int thread = threadIdx.y * kBlockW + threadIdx.x;
    for (int i = thread; i < kTileW * kTileH; i += kBlockW * kBlockH)
        tile[i / kTileW][i % kTileW] =
            foagdd_pixel(image, px0 - kBorder - kR0 + i % kTileW, py0 - kBorder - kR0 + i / kTileW);
    __syncthreads();
    float acc[kRows][kFoagddOrientations] = {};
    const int ty = threadIdx.y * kRows;
#pragma unroll 1
    for (int dx = 0; dx < kN0; ++dx) {
        float column[kRows + kN0 - 1];
#pragma unroll
        for (int i = 0; i < kRows + kN0 - 1; ++i) column[i] = tile[ty + i][threadIdx.x + dx];
#pragma unroll
        for (int dy = 0; dy < kN0; ++dy)
#pragma unroll
            for (int k = 0; k < kFoagddOrientations; ++k) {
                const float tap = c_taps[(k * kN0 + dx) * kN0 + dy];
#pragma unroll
                for (int r = 0; r < kRows; ++r) acc[r][k] = fmaf(tap, column[r + dy], acc[r][k]);
            }
    }
    const int px = px0 + threadIdx.x;
    const std::size_t plane = static_cast<std::size_t>(pw) * ph;
#pragma unroll
    for (int r = 0; r < kRows; ++r) {
        const int py = py0 + ty + r;
        if (px >= pw || py >= ph) continue;
#pragma unroll
        for (int k = 0; k < kFoagddOrientations; ++k)
            planes[k * plane + static_cast<std::size_t>(py) * pw + px] = fabsf(acc[r][k]);
    }
}

constexpr int kMeasureW = 32, kMeasureH = 8;
constexpr int kHaloW = kMeasureW + 2 * kBorder, kHaloH = kMeasureH + 2 * kBorder;

// The measure of every pixel, from a shared tile of the response planes.
__global__ void __launch_bounds__(kMeasureW * kMeasureH)
    measure_kernel(const float* planes, int width, int height, double* map) {
    __shared__ float tile[kFoagddOrientations][kHaloH][kHaloW];
    const int pw = width + 2 * kBorder, ph = height + 2 * kBorder;
    const std::size_t plane = static_cast<std::size_t>(pw) * ph;
    const int x0 = blockIdx.x * kMeasureW, y0 = blockIdx.y * kMeasureH;  // plane (x0, y0) is image (x0 - 3, y0 - 3)
    const int thread = threadIdx.y * kMeasureW + threadIdx.x;
    for (int i = thread; i < kFoagddOrientations * kHaloH * kHaloW; i += kMeasureW * kMeasureH) {
        const int k = i / (kHaloH * kHaloW), hy = i / kHaloW % kHaloH, hx = i % kHaloW;
        const int px = x0 + hx, py = y0 + hy;
        tile[k][hy][hx] = px < pw && py < ph ? planes[k * plane + static_cast<std::size_t>(py) * pw + px] : 0.f;
    }
    __syncthreads();
    const int x = x0 + threadIdx.x, y = y0 + threadIdx.y;
    if (x >= width || y >= height) return;
    const auto d = [&](int k, int j) {
        int dx = 0, dy = 0;
        foagdd_disc_offset(j, dx, dy);
        return tile[k][threadIdx.y + kBorder + dy][threadIdx.x + kBorder + dx];
    };
    map[static_cast<std::size_t>(y) * width + x] = foagdd_measure(d);
}

// Step 3's rule (common/foagdd_cpu.cpp's foagdd_candidates) for pixel index i.
struct IsCandidate {
    const double* map;
    int width, height;
    double threshold;
    __device__ bool operator()(int i) const {
        const int x = i % width, y = i / width;
        if (x < 6 || y < 6 || x >= width - 5 || y >= height - 5) return false;
        const double m = map[i];
        if (!(m > threshold)) return false;
        for (int dy = -2; dy <= 2; ++dy)
            for (int dx = -2; dx <= 2; ++dx)
                if (map[i + dy * width + dx] > m) return false;
        return true;
    }
};

// One block per candidate: thread (k, j) computes orientation k's response at the disc's j-th pixel for sigma 3,
// then (if that measure passes) for sigma 4.5; kept = both measures above the threshold.
__global__ void __launch_bounds__(kScaleThreads)
    scales_kernel(GrayView image, const int* candidates, const float* taps, const double* map, double threshold,
                  std::uint8_t* kept, double* measures) {
    __shared__ float patch[kPatch][kPatch];
    __shared__ float d[kFoagddOrientations][kFoagddDisc];
    __shared__ bool pass;
    const int i = candidates[blockIdx.x], x = i % image.width, y = i / image.width;
    for (int p = threadIdx.x; p < kPatch * kPatch; p += kScaleThreads)
        patch[p / kPatch][p % kPatch] = foagdd_pixel(image, x - kPatch / 2 + p % kPatch, y - kPatch / 2 + p / kPatch);
    if (threadIdx.x == 0) pass = true;
    const int k = threadIdx.x / kFoagddDisc, j = threadIdx.x % kFoagddDisc;
    int ox = 0, oy = 0;
    foagdd_disc_offset(j, ox, oy);
    const auto pixel = [&](int dx, int dy) { return patch[kPatch / 2 + oy + dy][kPatch / 2 + ox + dx]; };
    __syncthreads();
    for (int s = 0; s < 2 && pass; ++s) {
        d[k][j] = foagdd_response(taps + (s * kFoagddOrientations + k) * kN1 * kN1, kR1, pixel);
        __syncthreads();
        if (threadIdx.x == 0) pass = foagdd_measure([&](int kk, int jj) { return d[kk][jj]; }) > threshold;
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        kept[blockIdx.x] = pass;
        measures[blockIdx.x] = map[i];
    }
}

}  // namespace

FoagddGpu::FoagddGpu(double threshold) : threshold_(threshold) {
    const std::vector<float> taps0 = foagdd_taps(0);
    CASCADE_CUDA_CHECK(cudaMemcpyToSymbol(c_taps, taps0.data(), taps0.size() * sizeof(float)));
    std::vector<float> taps = foagdd_taps(1);
    const std::vector<float> taps2 = foagdd_taps(2);
    taps.insert(taps.end(), taps2.begin(), taps2.end());
    copy_to_device(taps_, taps, stream_.get());
    count_.resize(1);
    host_count_.resize(1);
    CASCADE_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
}

void FoagddGpu::upload(const GrayView& image) {
    width_ = image.width;
    height_ = image.height;
    const std::size_t pixels = static_cast<std::size_t>(width_) * height_;
    host_image_.resize(pixels);
    for (int y = 0; y < height_; ++y)
        std::copy(image.data + static_cast<std::size_t>(y) * image.stride,
                  image.data + static_cast<std::size_t>(y) * image.stride + width_, host_image_.get() + y * width_);
    image_.resize(pixels);
    CASCADE_CUDA_CHECK(
        cudaMemcpyAsync(image_.get(), host_image_.get(), pixels, cudaMemcpyHostToDevice, stream_.get()));
}

int FoagddGpu::select_candidates(int width, int height) {
    const int pixels = width * height;
    const IsCandidate rule{map_.get(), width, height, threshold_};
    candidates_.resize(static_cast<std::size_t>(pixels));
    std::size_t bytes = 0;
    const thrust::counting_iterator<int> indices(0);
    CASCADE_CUDA_CHECK(cub::DeviceSelect::If(nullptr, bytes, indices, candidates_.get(), count_.get(), pixels, rule,
                                             stream_.get()));
    select_temp_.resize(bytes);
    CASCADE_CUDA_CHECK(cub::DeviceSelect::If(select_temp_.get(), bytes, indices, candidates_.get(), count_.get(),
                                             pixels, rule, stream_.get()));
    CASCADE_CUDA_CHECK(cudaMemcpyAsync(host_count_.get(), count_.get(), sizeof(int), cudaMemcpyDeviceToHost,
                                       stream_.get()));
    timer_.end(stream_.get());
    // Every event recorded so far completes here, also when no candidate follows (kernel_times reads them).
    CASCADE_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
    return host_count_.get()[0];
}

std::vector<Keypoint> FoagddGpu::check_scales(int count) {
    std::vector<Keypoint> corners;
    if (count == 0) return corners;
    kept_.resize(static_cast<std::size_t>(count));
    point_measures_.resize(static_cast<std::size_t>(count));
    const GrayView image{image_.get(), width_, height_, width_};
    timer_.begin("scales", stream_.get());
    scales_kernel<<<count, kScaleThreads, 0, stream_.get()>>>(image, candidates_.get(), taps_.get(), map_.get(),
                                                              threshold_, kept_.get(), point_measures_.get());
    CASCADE_CUDA_CHECK(cudaGetLastError());
    timer_.end(stream_.get());
    timer_.begin("download", stream_.get());
    host_candidates_.resize(static_cast<std::size_t>(count));
    host_kept_.resize(static_cast<std::size_t>(count));
    host_measures_.resize(static_cast<std::size_t>(count));
    const cudaStream_t s = stream_.get();
    CASCADE_CUDA_CHECK(cudaMemcpyAsync(host_candidates_.get(), candidates_.get(), count * sizeof(int),
                                       cudaMemcpyDeviceToHost, s));
    CASCADE_CUDA_CHECK(cudaMemcpyAsync(host_kept_.get(), kept_.get(), count, cudaMemcpyDeviceToHost, s));
    CASCADE_CUDA_CHECK(cudaMemcpyAsync(host_measures_.get(), point_measures_.get(), count * sizeof(double),
                                       cudaMemcpyDeviceToHost, s));
    timer_.end(s);
    CASCADE_CUDA_CHECK(cudaStreamSynchronize(s));
    for (int i = 0; i < count; ++i)
        if (host_kept_.get()[i]) {
            const int index = host_candidates_.get()[i];
            corners.push_back({index % width_, index / width_, host_measures_.get()[i]});
        }
    return corners;
}

std::vector<Keypoint> FoagddGpu::detect(const GrayView& image, bool time_kernels) {
    timer_.reset(time_kernels);
    const cudaStream_t s = stream_.get();
    timer_.begin("upload", s);
    upload(image);
    timer_.end(s);
    const int pw = width_ + 2 * kBorder, ph = height_ + 2 * kBorder;
    planes_.resize(static_cast<std::size_t>(pw) * ph * kFoagddOrientations);
    map_.resize(static_cast<std::size_t>(width_) * height_);
    const GrayView device_image{image_.get(), width_, height_, width_};
    timer_.begin("responses", s);
    responses_kernel<<<dim3((pw + kBlockW - 1) / kBlockW, (ph + kBlockH * kRows - 1) / (kBlockH * kRows)),
                       dim3(kBlockW, kBlockH), 0, s>>>(device_image, planes_.get(), pw, ph);
    CASCADE_CUDA_CHECK(cudaGetLastError());
    timer_.end(s);
    timer_.begin("measure", s);
    measure_kernel<<<dim3((width_ + kMeasureW - 1) / kMeasureW, (height_ + kMeasureH - 1) / kMeasureH),
                     dim3(kMeasureW, kMeasureH), 0, s>>>(planes_.get(), width_, height_, map_.get());
    CASCADE_CUDA_CHECK(cudaGetLastError());
    timer_.end(s);
    timer_.begin("candidates", s);
    const int count = select_candidates(width_, height_);  // ends the "candidates" time
    return check_scales(count);
}

}  // namespace cascade::gpu
