#include "gpu/foagdd_gpu.hpp"

#include <algorithm>

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
constexpr int kDiscSide = 7;                                     // the disc's columns (and rows)
constexpr int kScaleThreads = kFoagddOrientations * kDiscSide;     // one thread per orientation and disc column
constexpr int kPatch = 2 * (kR1 + 3) + 1;  // the image a candidate's larger scales read: 37 x 37

__constant__ float c_taps[kFoagddOrientations * kN0 * kN0];

// The 8 response planes over the image and kBorder pixels around it (pw x ph each, plane (px, py) is image
// (px - 3, py - 3)). The accumulation order per response is foagdd_response's: dx outer, dy inner.
// Launched per band of block rows (first_row: the band's first), as the frame's strips arrive.
__global__ void __launch_bounds__(kBlockW * kBlockH)
    responses_kernel(GrayView image, float* planes, int pw, int ph, int first_row) {
    __shared__ float tile[kTileH][kTileW];
    const int px0 = blockIdx.x * kBlockW, py0 = (first_row + blockIdx.y) * kBlockH * kRows;
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

// The measure: a block computes a 32x8 tile of pixels in two phases over shared memory.
//   (a) each thread owns one tensor entry (k, l) and 4 adjacent columns of the tile: it walks down the tile's 14
//       rows (3 above and below), forms the row's products v_k v_l (exact in double) and their centred row sums over
//       3, 5 and 7 pixels (foagdd_widen), and adds each into the disc sums of the 7 output rows that use that row,
//       top to bottom (foagdd_disc_sum's order); 36 entries x 8 column groups = 288 threads;
//   (b) each thread of the first 256 gathers one pixel's 36 entries and computes det / trace.
// Per pixel and entry that is about 1 + 6 + 6 double operations instead of the 37 of a direct sum over the disc.
constexpr int kMeasureW = 32, kMeasureH = 8, kMeasureColumns = 4;
constexpr int kEntries = kFoagddOrientations * (kFoagddOrientations + 1) / 2;
constexpr int kMeasureThreads = kEntries * (kMeasureW / kMeasureColumns);
constexpr int kHaloW = kMeasureW + 2 * kBorder, kHaloH = kMeasureH + 2 * kBorder;
// Shared strides in doubles: rows even (16-byte loads); a plane 16 bytes past a multiple of 128 and an entry 8
// bytes past one, so that a warp's lanes (consecutive entries) fall in different banks.
constexpr int kHaloPitch = kHaloW + 2, kPlaneStride = kHaloH * kHaloPitch + 2;
constexpr int kEntryStride = kMeasureW * kMeasureH + 1;
constexpr std::size_t kMeasureShared = sizeof(double) * (kFoagddOrientations * kPlaneStride + kEntries * kEntryStride);

// The entry (k, l) of packed index e.
__device__ void unpack_entry(int e, int& k, int& l) {
    k = 0;
    while (e > foagdd_packed(k, kFoagddOrientations - 1)) ++k;
    l = k + e - foagdd_packed(k, k);
}

// Phase (a) for entry (k, l) and the columns [c0, c0 + 4) of the tile: m[o * kMeasureW + c0 + c] = M(k, l) there.
__device__ void disc_sums(const double* planes, int k, int l, int c0, double* m) {
    const double* vk = planes + k * kPlaneStride + c0;
    const double* vl = planes + l * kPlaneStride + c0;
    constexpr int n = kMeasureColumns + 2 * kBorder;
    double acc[kMeasureH][kMeasureColumns];
#pragma unroll
    for (int r = 0; r < kHaloH; ++r) {
        double p[n];
#pragma unroll
        for (int i = 0; i < n; i += 2) {
            const double2 a = *reinterpret_cast<const double2*>(vk + r * kHaloPitch + i);
            const double2 b = *reinterpret_cast<const double2*>(vl + r * kHaloPitch + i);
            p[i] = a.x * b.x;
            p[i + 1] = a.y * b.y;
        }
#pragma unroll
        for (int c = 0; c < kMeasureColumns; ++c) {
            double h[4];  // h[w]: the centred sum over 2 w + 1 pixels
            h[1] = foagdd_widen(p[c + 3], p[c + 2], p[c + 4]);
            h[2] = foagdd_widen(h[1], p[c + 1], p[c + 5]);
            h[3] = foagdd_widen(h[2], p[c], p[c + 6]);
#pragma unroll
            for (int o = 0; o < kMeasureH; ++o) {
                const int q = r - o;  // tile row r is the disc's row q of output row o
                if (q < 0 || q > 6) continue;
                const double row = h[foagdd_disc_half(q - 3)];
                acc[o][c] = q == 0 ? row : acc[o][c] + row;
                if (q == 6) m[o * kMeasureW + c0 + c] = acc[o][c];
            }
        }
    }
}

__global__ void __launch_bounds__(kMeasureThreads, 2)
    measure_kernel(const float* planes, int width, int height, double* map) {
    extern __shared__ double shared[];
    double* tile = shared;                                          // [k * kPlaneStride + row * kHaloPitch + col]
    double* entries = shared + kFoagddOrientations * kPlaneStride;  // [e * kEntryStride + pixel of the tile]
    const int pw = width + 2 * kBorder, ph = height + 2 * kBorder;
    const std::size_t plane = static_cast<std::size_t>(pw) * ph;
    const int x0 = blockIdx.x * kMeasureW, y0 = blockIdx.y * kMeasureH;  // plane (x0, y0) is image (x0 - 3, y0 - 3)
    for (int i = threadIdx.x; i < kFoagddOrientations * kHaloH * kHaloW; i += kMeasureThreads) {
        const int k = i / (kHaloH * kHaloW), hy = i / kHaloW % kHaloH, hx = i % kHaloW;
        const int px = x0 + hx, py = y0 + hy;
        tile[k * kPlaneStride + hy * kHaloPitch + hx] =
            px < pw && py < ph ? planes[k * plane + static_cast<std::size_t>(py) * pw + px] : 0.f;
    }
    __syncthreads();
    const int e = threadIdx.x % kEntries;
    int k = 0, l = 0;
    unpack_entry(e, k, l);
    disc_sums(tile, k, l, threadIdx.x / kEntries * kMeasureColumns, entries + e * kEntryStride);
    __syncthreads();
    const int t = threadIdx.x, x = x0 + t % kMeasureW, y = y0 + t / kMeasureW;
    if (t >= kMeasureW * kMeasureH || x >= width || y >= height) return;
    double m[kEntries];
#pragma unroll
    for (int i = 0; i < kEntries; ++i) m[i] = entries[i * kEntryStride + t];
    map[static_cast<std::size_t>(y) * width + x] = foagdd_tensor_measure(m);
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

// Index j of the disc pixel (ox, oy) (foagdd_disc_offset's order).
__device__ int disc_index(int ox, int oy) {
    int j = 0;
    for (int dy = -3; dy < oy; ++dy) j += 2 * foagdd_disc_half(dy) + 1;
    return j + ox + foagdd_disc_half(oy);
}

// The responses of orientation k at the disc's column ox (the 7 pixels oy = -3..3; the disc keeps |oy| <= its
// half height) for one of the larger scales (31x31 taps in shared memory): each thread walks the taps' columns
// dx, holds the patch's column under them (37 values) and adds every tap into all 7 sums, so that each response
// is summed in foagdd_response's order (dx outer, dy inner, fmaf) with a load per 7 FMA instead of two per FMA.
__device__ void column_responses(const float (*patch)[kPatch], const float* taps, int k, int ox,
                                 float (*d)[kFoagddDisc]) {
    float acc[kDiscSide] = {};
#pragma unroll 1
    for (int dx = -kR1; dx <= kR1; ++dx) {
        float column[kPatch];
#pragma unroll
        for (int i = 0; i < kPatch; ++i) column[i] = patch[i][kPatch / 2 + ox + dx];
        const float* t = taps + (k * kN1 + dx + kR1) * kN1;
#pragma unroll
        for (int dy = 0; dy < kN1; ++dy) {
            const float tap = t[dy];
#pragma unroll
            for (int o = 0; o < kDiscSide; ++o) acc[o] = fmaf(tap, column[o + dy], acc[o]);
        }
    }
    const int half = foagdd_disc_half(ox);
#pragma unroll
    for (int o = 0; o < kDiscSide; ++o)
        if (o - 3 >= -half && o - 3 <= half) d[k][disc_index(ox, o - 3)] = fabsf(acc[o]);
}

// One block per candidate: for sigma 3, the 8 x 37 responses at its disc (column_responses), the 36 tensor entries
// (one thread each), det / trace (one thread); then the same for sigma 4.5 if the first passed; kept = both
// measures above the threshold.
__global__ void __launch_bounds__(kScaleThreads)
    scales_kernel(GrayView image, const int* candidates, const float* taps, const double* map, double threshold,
                  std::uint8_t* kept, double* measures) {
    __shared__ float patch[kPatch][kPatch];
    __shared__ __align__(16) float scale_taps[kFoagddOrientations * kN1 * kN1];
    __shared__ float d[kFoagddOrientations][kFoagddDisc];
    __shared__ double m[kEntries];
    __shared__ bool pass;
    const int i = candidates[blockIdx.x], x = i % image.width, y = i / image.width;
    for (int p = threadIdx.x; p < kPatch * kPatch; p += kScaleThreads)
        patch[p / kPatch][p % kPatch] = foagdd_pixel(image, x - kPatch / 2 + p % kPatch, y - kPatch / 2 + p / kPatch);
    if (threadIdx.x == 0) pass = true;
    const auto response = [&](int kk, int jj) { return d[kk][jj]; };
    for (int s = 0; s < 2; ++s) {
        if (s > 0 && !pass) break;  // the same for every thread: written before the last barrier
        constexpr int kQuads = kFoagddOrientations * kN1 * kN1 / 4;  // taps of one scale, 16-byte aligned
        const float4* source = reinterpret_cast<const float4*>(taps) + s * kQuads;
        for (int q = threadIdx.x; q < kQuads; q += kScaleThreads) reinterpret_cast<float4*>(scale_taps)[q] = source[q];
        __syncthreads();
        column_responses(patch, scale_taps, threadIdx.x / kDiscSide, threadIdx.x % kDiscSide - 3, d);
        __syncthreads();
        if (threadIdx.x < kEntries) {
            int ek = 0, el = 0;
            unpack_entry(threadIdx.x, ek, el);
            m[threadIdx.x] = foagdd_tensor_entry(response, ek, el);
        }
        __syncthreads();
        if (threadIdx.x == 0) pass = foagdd_tensor_measure(m) > threshold;
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
    CASCADE_CUDA_CHECK(cudaFuncSetAttribute(measure_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                            static_cast<int>(kMeasureShared)));
    std::vector<float> taps = foagdd_taps(1);
    const std::vector<float> taps2 = foagdd_taps(2);
    taps.insert(taps.end(), taps2.begin(), taps2.end());
    copy_to_device(taps_, taps, stream_.get());
    count_.resize(1);
    host_count_.resize(1);
    CASCADE_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
}

std::uint8_t* FoagddGpu::staging(Size size) {
    host_image_.resize(static_cast<std::size_t>(size.width) * size.height);
    return host_image_.get();
}

// In strips of rows on the copy stream: the host copy into the pinned staging (unless the caller wrote the frame
// there), then the strip's upload, which runs while the next strip is copied. With `overlap`, the responses of
// every band of block rows whose image rows (the 19x19 support and the disc's 3, reflected at the bottom) have
// arrived are launched at once on the compute stream, so that the upload overlaps the convolution; without it
// (per-stage timing) they wait for the whole frame.
void FoagddGpu::upload_and_respond(const GrayView& image, bool overlap) {
    width_ = image.width;
    height_ = image.height;
    const int pw = width_ + 2 * kBorder, ph = height_ + 2 * kBorder;
    planes_.resize(static_cast<std::size_t>(pw) * ph * kFoagddOrientations);
    std::uint8_t* host = staging({width_, height_});
    image_.resize(static_cast<std::size_t>(width_) * height_);
    const GrayView device_image{image_.get(), width_, height_, width_};
    constexpr int kBand = kBlockH * kRows;  // plane rows per block row
    const int bands = (ph + kBand - 1) / kBand, rows = (height_ + kStrips - 1) / kStrips;
    const cudaStream_t copy = copy_stream_.get(), compute = stream_.get();
    CASCADE_CUDA_CHECK(cudaEventRecord(strip_ready_[kStrips].get(), compute));  // the last frame's kernels read image_
    CASCADE_CUDA_CHECK(cudaStreamWaitEvent(copy, strip_ready_[kStrips].get(), 0));
    timer_.begin("upload", copy);
    int launched = 0;
    for (int strip = 0, y0 = 0; y0 < height_; ++strip, y0 += rows) {
        const int y1 = std::min(height_, y0 + rows);
        const std::size_t first = static_cast<std::size_t>(y0) * width_, bytes = static_cast<std::size_t>(y1 - y0) * width_;
        if (image.data != host)
            for (int y = y0; y < y1; ++y)
                std::copy(image.data + static_cast<std::size_t>(y) * image.stride,
                          image.data + static_cast<std::size_t>(y) * image.stride + width_, host + y * width_);
        CASCADE_CUDA_CHECK(cudaMemcpyAsync(image_.get() + first, host + first, bytes, cudaMemcpyHostToDevice, copy));
        if (y1 == height_) timer_.end(copy);
        CASCADE_CUDA_CHECK(cudaEventRecord(strip_ready_[strip].get(), copy));
        // Band b reads image rows up to (b + 1) kBand - 1 - kBorder + kR0; beyond the frame they reflect inside it.
        const int ready = y1 == height_ ? bands : std::max(0, std::min(bands, (y1 - kR0 + kBorder) / kBand));
        if ((!overlap && y1 < height_) || ready == launched) continue;
        CASCADE_CUDA_CHECK(cudaStreamWaitEvent(compute, strip_ready_[strip].get(), 0));
        if (launched == 0) timer_.begin("responses", compute);
        responses_kernel<<<dim3((pw + kBlockW - 1) / kBlockW, ready - launched), dim3(kBlockW, kBlockH), 0, compute>>>(
            device_image, planes_.get(), pw, ph, launched);
        CASCADE_CUDA_CHECK(cudaGetLastError());
        launched = ready;
    }
    timer_.end(compute);
}

void FoagddGpu::select_candidates(int width, int height) {
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

void FoagddGpu::start(const GrayView& image, bool time_kernels) {
    timer_.reset(time_kernels);
    const cudaStream_t s = stream_.get();
    upload_and_respond(image, !time_kernels);
    map_.resize(static_cast<std::size_t>(width_) * height_);
    timer_.begin("measure", s);
    measure_kernel<<<dim3((width_ + kMeasureW - 1) / kMeasureW, (height_ + kMeasureH - 1) / kMeasureH),
                     kMeasureThreads, kMeasureShared, s>>>(planes_.get(), width_, height_, map_.get());
    CASCADE_CUDA_CHECK(cudaGetLastError());
    timer_.end(s);
    timer_.begin("candidates", s);
    select_candidates(width_, height_);  // ends the "candidates" time
}

std::vector<Keypoint> FoagddGpu::finish() {
    // Every event recorded so far completes here, also when no candidate follows (kernel_times reads them).
    CASCADE_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
    return check_scales(host_count_.get()[0]);
}

}  // namespace cascade::gpu
