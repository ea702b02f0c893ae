#include "gpu/template_match_gpu.hpp"

#include <algorithm>
#include <memory>

#include "common/template_stats.hpp"
#include "gpu/cuda_check.hpp"
#include "gpu/plane_upload.hpp"

namespace cascade::gpu {

namespace {

constexpr int kBlockW = 32, kBlockH = 8, kRows = 4;  // a block: 32 x 8 threads, each 4 positions down a column
constexpr int kTileOutW = kBlockW, kTileOutH = kBlockH * kRows;

struct Geometry {
    int templ_w, templ_h, image_w, image_h, out_w, out_h;
    __host__ __device__ int tile_w() const { return kTileOutW + templ_w - 1; }
    __host__ __device__ int tile_h() const { return kTileOutH + templ_h - 1; }
};

// Planes of `channels` x (w x h) bytes, contiguous, as common/'s MatchPlanes over `data`.
__host__ __device__ MatchPlanes planes_at(const std::uint8_t* data, int channels, int w, int h) {
    MatchPlanes p;
    p.channels = channels;
    for (int c = 0; c < channels; ++c) p.planes[c] = {data + static_cast<std::size_t>(c) * w * h, w, h, w};
    return p;
}

// Shared memory: the tile's planes (bytes), then, when the mode needs window sums, each tile row's sums over
// the template's width at every output column: per channel, and of the squares over all channels (uint32).
template <int C, bool kSums>
__global__ void __launch_bounds__(kBlockW * kBlockH)
    score_kernel(const std::uint8_t* image, const std::uint8_t* templ, Geometry g, TemplateStats stats, float* out) {
    extern __shared__ unsigned char shared[];
    const int tile_w = g.tile_w(), tile_h = g.tile_h(), tile_size = tile_w * tile_h;
    const int x0 = blockIdx.x * kTileOutW, y0 = blockIdx.y * kTileOutH;
    const int thread = threadIdx.y * kBlockW + threadIdx.x, threads = kBlockW * kBlockH;
    std::uint8_t* tile = shared;
    for (int c = 0; c < C; ++c)
        for (int i = thread; i < tile_size; i += threads) {
            const int x = x0 + i % tile_w, y = y0 + i / tile_w;
            tile[c * tile_size + i] =
                x < g.image_w && y < g.image_h ? image[(std::size_t(c) * g.image_h + y) * g.image_w + x] : 0;
        }
    __syncthreads();
    std::uint32_t* row_sums = reinterpret_cast<std::uint32_t*>(shared + ((C * tile_size + 15) & ~15));
    const int sums_size = tile_h * kTileOutW;
    if (kSums) {
        for (int i = thread; i < sums_size; i += threads) {
            const int row = i / kTileOutW, col = i % kTileOutW;
            std::uint32_t squares = 0;
            for (int c = 0; c < C; ++c) {
                const std::uint8_t* p = tile + c * tile_size + row * tile_w + col;
                std::uint32_t sum = 0;
                for (int tx = 0; tx < g.templ_w; ++tx) {
                    sum += p[tx];
                    squares += std::uint32_t(p[tx]) * p[tx];
                }
                row_sums[c * sums_size + i] = sum;
            }
            row_sums[C * sums_size + i] = squares;
        }
        __syncthreads();
    }
    const MatchPlanes tile_planes = planes_at(tile, C, tile_w, tile_h);
    const MatchPlanes templ_planes = planes_at(templ, C, g.templ_w, g.templ_h);
    const int lx = threadIdx.x, x = x0 + lx;
    for (int r = 0; r < kRows; ++r) {
        const int ly = threadIdx.y * kRows + r, y = y0 + ly;
        if (x >= g.out_w || y >= g.out_h) continue;
        const std::uint32_t cross = window_cross<std::uint32_t>(tile_planes, templ_planes, lx, ly);
        WindowSums sums;
        if (kSums) {
            std::uint32_t squares = 0;
            for (int c = 0; c <= C; ++c) {
                std::uint32_t s = 0;
                for (int ty = 0; ty < g.templ_h; ++ty) s += row_sums[c * sums_size + (ly + ty) * kTileOutW + lx];
                if (c < C) sums.sum[c] = s;
                else squares = s;
            }
            sums.sum2 = squares;
        }
        out[static_cast<std::size_t>(y) * g.out_w + x] = match_score(stats, static_cast<double>(cross), sums);
    }
}

__global__ void exact_kernel(MatchPlanes image, MatchPlanes templ, int out_w, int out_h, MatchPosition* hits,
                             unsigned int* count) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= out_w || y >= out_h || !window_equals(image, templ, x, y)) return;
    hits[atomicAdd(count, 1u)] = {x, y};
}

struct Launch {
    Geometry g;
    const std::uint8_t* image;
    const std::uint8_t* templ;
    TemplateStats stats;
    float* out;
    std::size_t bytes;
    cudaStream_t stream;
};

template <int C, bool kSums>
void launch(const Launch& l) {
    const auto kernel = score_kernel<C, kSums>;
    CASCADE_CUDA_CHECK(
        cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(l.bytes)));
    const dim3 grid((l.g.out_w + kTileOutW - 1) / kTileOutW, (l.g.out_h + kTileOutH - 1) / kTileOutH);
    kernel<<<grid, dim3(kBlockW, kBlockH), l.bytes, l.stream>>>(l.image, l.templ, l.g, l.stats, l.out);
    CASCADE_CUDA_CHECK(cudaGetLastError());
}

template <int C>
void launch_channels(const Launch& l, bool sums) {
    if (sums)
        launch<C, true>(l);
    else
        launch<C, false>(l);
}

bool needs_sums(MatchMethod m) { return m != MatchMethod::ccorr; }

}  // namespace

std::size_t TemplateMatcherGpu::shared_bytes(int templ_width, int templ_height, int channels, MatchMethod method) {
    const Geometry g{templ_width, templ_height, 0, 0, 0, 0};
    const std::size_t tile = (static_cast<std::size_t>(channels) * g.tile_w() * g.tile_h() + 15) & ~std::size_t(15);
    const std::size_t sums = needs_sums(method) ? sizeof(std::uint32_t) * (channels + 1) * g.tile_h() * kTileOutW : 0;
    return tile + sums;
}

TemplateMatcherGpu::TemplateMatcherGpu(const MatchPlanes& templ, MatchMethod method, MatchPath path)
    : stream_(), method_(method), path_(path), stats_(template_stats(templ, method)), channels_(templ.channels),
      templ_w_(templ.width()), templ_h_(templ.height()) {
    if (channels_ < 1 || channels_ > max_match_channels) throw CudaError("template matching: 1 to 3 channels");
    if (255. * 255. * templ_w_ * templ_h_ * channels_ >= 4294967296.)
        throw CudaError("template matching on the GPU: the template is too large for exact uint32 sums");
    int device = 0, limit = 0;
    CASCADE_CUDA_CHECK(cudaGetDevice(&device));
    CASCADE_CUDA_CHECK(cudaDeviceGetAttribute(&limit, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    direct_fits_ = shared_bytes(templ_w_, templ_h_, channels_, method) <= static_cast<std::size_t>(limit);
    if (!direct_fits_ && path_ == MatchPath::direct)
        throw CudaError("template matching on the GPU: the template's tile does not fit in shared memory");
    if (!direct_fits_) path_ = MatchPath::fft;
    upload_planes(templ.planes, channels_, templ_, stream_.get());
    fft_ = std::make_unique<TemplateFftGpu>(templ_.get(), channels_, templ_w_, templ_h_, stats_, stream_.get());
    hit_count_.resize(1);
}

void TemplateMatcherGpu::upload(const MatchPlanes& image) {
    image_w_ = image.width();
    image_h_ = image.height();
    upload_planes(image.planes, channels_, image_, stream_.get());
}

void TemplateMatcherGpu::launch_scores() {
    scores_.resize(static_cast<std::size_t>(image_w_ - templ_w_ + 1) * (image_h_ - templ_h_ + 1));
    if (size_w_ != image_w_ || size_h_ != image_h_ || size_path_ == MatchPath::automatic) {
        size_w_ = image_w_;
        size_h_ = image_h_;
        size_path_ = path_ != MatchPath::automatic                                 ? path_
                     : time_path(MatchPath::fft) < time_path(MatchPath::direct) ? MatchPath::fft
                                                                                 : MatchPath::direct;
    }
    launch_path(size_path_);
}

// One warm-up and one timed run of the path on the current image (ms).
float TemplateMatcherGpu::time_path(MatchPath path) {
    launch_path(path);
    Event start, stop;
    start.record(stream_.get());
    launch_path(path);
    stop.record(stream_.get());
    CASCADE_CUDA_CHECK(cudaEventSynchronize(stop.get()));
    return stop.since(start);
}

void TemplateMatcherGpu::launch_path(MatchPath path) {
    if (path == MatchPath::fft) return fft_->scores(image_.get(), image_w_, image_h_, scores_.get());
    const Geometry g{templ_w_, templ_h_, image_w_, image_h_, image_w_ - templ_w_ + 1, image_h_ - templ_h_ + 1};
    const Launch l{g,       image_.get(), templ_.get(), stats_, scores_.get(),
                   shared_bytes(templ_w_, templ_h_, channels_, method_), stream_.get()};
    const bool sums = needs_sums(method_);
    if (channels_ == 1) launch_channels<1>(l, sums);
    else if (channels_ == 2) launch_channels<2>(l, sums);
    else launch_channels<3>(l, sums);
}

ScoreMap TemplateMatcherGpu::score_map(const MatchPlanes& image) {
    upload(image);
    launch_scores();
    ScoreMap map;
    map.width = image_w_ - templ_w_ + 1;
    map.height = image_h_ - templ_h_ + 1;
    map.scores.resize(static_cast<std::size_t>(map.width) * map.height);
    CASCADE_CUDA_CHECK(cudaMemcpyAsync(map.scores.data(), scores_.get(), map.scores.size() * sizeof(float),
                                       cudaMemcpyDeviceToHost, stream_.get()));
    CASCADE_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
    return map;
}

float TemplateMatcherGpu::rerun(int repeats) {
    Event start, stop;
    start.record(stream_.get());
    for (int i = 0; i < repeats; ++i) launch_scores();
    stop.record(stream_.get());
    CASCADE_CUDA_CHECK(cudaEventSynchronize(stop.get()));
    return stop.since(start) / static_cast<float>(std::max(repeats, 1));
}

std::vector<MatchPosition> TemplateMatcherGpu::exact_matches(const MatchPlanes& image) {
    upload(image);
    const int out_w = image_w_ - templ_w_ + 1, out_h = image_h_ - templ_h_ + 1;
    hits_.resize(static_cast<std::size_t>(out_w) * out_h);
    CASCADE_CUDA_CHECK(cudaMemsetAsync(hit_count_.get(), 0, sizeof(unsigned int), stream_.get()));
    const dim3 block(32, 8), grid((out_w + 31) / 32, (out_h + 7) / 8);
    exact_kernel<<<grid, block, 0, stream_.get()>>>(planes_at(image_.get(), channels_, image_w_, image_h_),
                                                    planes_at(templ_.get(), channels_, templ_w_, templ_h_), out_w,
                                                    out_h, hits_.get(), hit_count_.get());
    CASCADE_CUDA_CHECK(cudaGetLastError());
    unsigned int count = 0;
    CASCADE_CUDA_CHECK(
        cudaMemcpyAsync(&count, hit_count_.get(), sizeof count, cudaMemcpyDeviceToHost, stream_.get()));
    CASCADE_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
    std::vector<MatchPosition> hits(count);
    CASCADE_CUDA_CHECK(cudaMemcpy(hits.data(), hits_.get(), count * sizeof(MatchPosition), cudaMemcpyDeviceToHost));
    std::sort(hits.begin(), hits.end(),
              [](MatchPosition a, MatchPosition b) { return a.y != b.y ? a.y < b.y : a.x < b.x; });
    return hits;
}

}  // namespace cascade::gpu
