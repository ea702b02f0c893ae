#include "gpu/template_fft_gpu.hpp"

#include <string>

#include "gpu/cuda_check.hpp"

namespace cascade::gpu {

namespace {

constexpr int kThreads = 256, kColumnBatch = 16;

void cufft_check(cufftResult result, const char* what) {
    if (result != CUFFT_SUCCESS) throw CudaError(std::string("cuFFT: ") + what + " failed (error " + std::to_string(result) + ")");
}

// The smallest n' >= n whose only prime factors are 2, 3, 5 and 7: sizes cuFFT transforms fastest.
int fft_size(int n) {
    for (int m = n;; ++m) {
        int r = m;
        for (const int p : {2, 3, 5, 7})
            while (r % p == 0) r /= p;
        if (r == 1) return m;
    }
}

int blocks(std::size_t n) { return static_cast<int>((n + kThreads - 1) / kThreads); }

// Planes of w x h bytes into fft_w x fft_h doubles, zero outside.
__global__ void pad_kernel(const std::uint8_t* planes, int channels, int w, int h, double* out, int fft_w, int fft_h) {
    const std::size_t plane = static_cast<std::size_t>(fft_w) * fft_h;
    const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i >= plane * channels) return;
    const int c = static_cast<int>(i / plane), x = static_cast<int>(i % plane % fft_w), y = static_cast<int>(i % plane / fft_w);
    out[i] = x < w && y < h ? planes[(static_cast<std::size_t>(c) * h + y) * w + x] : 0.;
}

// out[i] = sum over channels of image[i] * conj(templ[i]): the spectrum of the correlation (out may be image).
__global__ void multiply_kernel(const cufftDoubleComplex* image, const cufftDoubleComplex* templ, int channels,
                                std::size_t n, cufftDoubleComplex* out) {
    const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i >= n) return;
    double re = 0, im = 0;
    for (int c = 0; c < channels; ++c) {
        const cufftDoubleComplex a = image[c * n + i], b = templ[c * n + i];
        re += a.x * b.x + a.y * b.y;
        im += a.y * b.x - a.x * b.y;
    }
    out[i] = {re, im};
}

template <typename T>
__device__ T warp_inclusive_scan(T v, int lane) {
    for (int offset = 1; offset < 32; offset <<= 1) {
        const T n = __shfl_up_sync(0xffffffffu, v, offset);
        if (lane >= offset) v += n;
    }
    return v;
}

// Row prefix sums of the exclusive integral images (row y + 1, columns 1..w), one warp per row and plane:
// planes 0..channels-1 the pixels (uint32), plane `channels` the squares summed over the channels (uint64).
__global__ void integral_rows_kernel(const std::uint8_t* image, int channels, int w, int h, std::uint32_t* sums,
                                     std::uint64_t* squares) {
    const int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x % 32;
    const int y = warp / (channels + 1), p = warp % (channels + 1);
    if (y >= h) return;
    const std::size_t plane = static_cast<std::size_t>(w) * h, stride = w + 1;
    const std::size_t plane_sums = stride * (h + 1), row = (y + 1) * stride + 1;
    const std::uint8_t* pixels = image + static_cast<std::size_t>(y) * w;
    std::uint64_t carry = 0;
    for (int base = 0; base < w; base += 32) {
        const int x = base + lane;
        std::uint64_t v = 0;
        if (x < w && p < channels) v = pixels[p * plane + x];
        if (x < w && p == channels)
            for (int c = 0; c < channels; ++c) v += std::uint64_t(pixels[c * plane + x]) * pixels[c * plane + x];
        const std::uint64_t scan = warp_inclusive_scan(v, lane) + carry;
        if (x < w && p < channels) sums[p * plane_sums + row + x] = static_cast<std::uint32_t>(scan);
        if (x < w && p == channels) squares[row + x] = scan;
        carry = __shfl_sync(0xffffffffu, scan, 31);
    }
}

// Running sums down the columns of `planes` planes of `stride` x (rows + 1) elements (row 0 is zero), one
// thread per column, kColumnBatch rows loaded before they are summed.
template <typename T>
__global__ void integral_columns_kernel(T* data, int stride, int rows, int planes) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= stride * planes) return;
    T* column = data + static_cast<std::size_t>(i / stride) * stride * (rows + 1) + i % stride;
    T acc = 0;
    for (int y = 1; y <= rows; y += kColumnBatch) {
        T v[kColumnBatch];
#pragma unroll
        for (int k = 0; k < kColumnBatch; ++k) v[k] = y + k <= rows ? column[static_cast<std::size_t>(y + k) * stride] : 0;
#pragma unroll
        for (int k = 0; k < kColumnBatch; ++k) {
            acc += v[k];
            if (y + k <= rows) column[static_cast<std::size_t>(y + k) * stride] = acc;
        }
    }
}

struct Finish {
    const double* correlation;
    int fft_w;
    double inv_n;
    const std::uint32_t* sums;
    const std::uint64_t* squares;
    int image_w, image_h, templ_w, templ_h, out_w, out_h, channels;
    bool with_sums;
    TemplateStats stats;
};

// Each position: the correlation rounded to its integer, the window sums, common/'s match_score.
__global__ void finish_kernel(Finish f, float* out) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= f.out_w || y >= f.out_h) return;
    const double cross = rint(f.correlation[static_cast<std::size_t>(y) * f.fft_w + x] * f.inv_n);
    WindowSums sums;
    if (f.with_sums) {
        const int stride = f.image_w + 1;
        IntegralView views[max_match_channels];
        for (int c = 0; c < f.channels; ++c) views[c] = {f.sums + static_cast<std::size_t>(c) * stride * (f.image_h + 1), stride};
        sums = window_sums(views, f.channels, {f.squares, stride}, x, y, f.templ_w, f.templ_h);
    }
    out[static_cast<std::size_t>(y) * f.out_w + x] = match_score(f.stats, cross > 0 ? cross : 0., sums);
}

}  // namespace

TemplateFftGpu::TemplateFftGpu(const std::uint8_t* templ, int channels, int w, int h, const TemplateStats& stats,
                               cudaStream_t stream)
    : templ_(templ), channels_(channels), w_(w), h_(h), stats_(stats), stream_(stream) {}

TemplateFftGpu::~TemplateFftGpu() { destroy_plans(); }

void TemplateFftGpu::destroy_plans() {
    if (!plans_) return;
    cufftDestroy(forward_);
    cufftDestroy(inverse_);
    plans_ = false;
}

void TemplateFftGpu::prepare(int image_w, int image_h) {
    if (plans_ && image_w == image_w_ && image_h == image_h_) return;
    destroy_plans();
    image_w_ = image_w;
    image_h_ = image_h;
    fft_w_ = fft_size(image_w);
    fft_h_ = fft_size(image_h);
    int dims[2] = {fft_h_, fft_w_};
    cufft_check(cufftPlanMany(&forward_, 2, dims, nullptr, 1, 0, nullptr, 1, 0, CUFFT_D2Z, channels_), "forward plan");
    if (cufftPlan2d(&inverse_, fft_h_, fft_w_, CUFFT_Z2D) != CUFFT_SUCCESS) {
        cufftDestroy(forward_);
        throw CudaError("cuFFT: inverse plan failed");
    }
    plans_ = true;
    cufft_check(cufftSetStream(forward_, stream_), "stream");
    cufft_check(cufftSetStream(inverse_, stream_), "stream");
    const std::size_t real = static_cast<std::size_t>(fft_w_) * fft_h_, complex = static_cast<std::size_t>(fft_w_ / 2 + 1) * fft_h_;
    real_.resize(real * channels_);
    spectra_.resize(complex * channels_);
    templ_spectra_.resize(complex * channels_);
    pad_kernel<<<blocks(real * channels_), kThreads, 0, stream_>>>(templ_, channels_, w_, h_, real_.get(), fft_w_, fft_h_);
    CASCADE_CUDA_CHECK(cudaGetLastError());
    cufft_check(cufftExecD2Z(forward_, real_.get(), templ_spectra_.get()), "template transform");
    const std::size_t integral = static_cast<std::size_t>(image_w + 1) * (image_h + 1);
    sums_.resize(integral * channels_);
    squares_.resize(integral);
    // Row 0 and column 0 of every integral image stay zero: the kernels write only the rest.
    CASCADE_CUDA_CHECK(cudaMemsetAsync(sums_.get(), 0, integral * channels_ * sizeof(std::uint32_t), stream_));
    CASCADE_CUDA_CHECK(cudaMemsetAsync(squares_.get(), 0, integral * sizeof(std::uint64_t), stream_));
}

void TemplateFftGpu::scores(const std::uint8_t* image, int image_w, int image_h, float* out) {
    prepare(image_w, image_h);
    const std::size_t real = static_cast<std::size_t>(fft_w_) * fft_h_, complex = static_cast<std::size_t>(fft_w_ / 2 + 1) * fft_h_;
    pad_kernel<<<blocks(real * channels_), kThreads, 0, stream_>>>(image, channels_, image_w, image_h, real_.get(), fft_w_, fft_h_);
    CASCADE_CUDA_CHECK(cudaGetLastError());
    cufft_check(cufftExecD2Z(forward_, real_.get(), spectra_.get()), "image transform");
    multiply_kernel<<<blocks(complex), kThreads, 0, stream_>>>(spectra_.get(), templ_spectra_.get(), channels_, complex, spectra_.get());
    CASCADE_CUDA_CHECK(cudaGetLastError());
    cufft_check(cufftExecZ2D(inverse_, spectra_.get(), real_.get()), "inverse transform");
    const bool with_sums = stats_.method != MatchMethod::ccorr;
    if (with_sums) {
        const std::size_t warps = static_cast<std::size_t>(image_h) * (channels_ + 1);
        integral_rows_kernel<<<blocks(warps * 32), kThreads, 0, stream_>>>(image, channels_, image_w, image_h, sums_.get(), squares_.get());
        CASCADE_CUDA_CHECK(cudaGetLastError());
        integral_columns_kernel<<<blocks(std::size_t(image_w + 1) * channels_), kThreads, 0, stream_>>>(sums_.get(), image_w + 1, image_h, channels_);
        integral_columns_kernel<<<blocks(image_w + 1), kThreads, 0, stream_>>>(squares_.get(), image_w + 1, image_h, 1);
        CASCADE_CUDA_CHECK(cudaGetLastError());
    }
    const Finish f{real_.get(), fft_w_, 1. / static_cast<double>(real), sums_.get(), squares_.get(), image_w, image_h,
                   w_, h_, image_w - w_ + 1, image_h - h_ + 1, channels_, with_sums, stats_};
    const dim3 block(32, 8), grid((f.out_w + 31) / 32, (f.out_h + 7) / 8);
    finish_kernel<<<grid, block, 0, stream_>>>(f, out);
    CASCADE_CUDA_CHECK(cudaGetLastError());
}

}  // namespace cascade::gpu
