#include "gpu/covariance_integrals_gpu.hpp"

#include "gpu/cuda_check.hpp"

namespace cascade::gpu {

namespace {

constexpr int kTileWidth = 256;  // columns per tile: one thread each
constexpr int kBandRows = 32;    // rows per tile
constexpr int kWarps = kTileWidth / 32;
constexpr unsigned kFullMask = 0xffffffffu;

template <int D>
__host__ __device__ constexpr int plane_count() {
    return D + D * (D + 1) / 2;
}

// The plane values of pixel (x, y): its D features, then their products f_i f_j (i <= j); zero right of the image.
// int32: every feature is within 2^11 in magnitude, so a product within 2^22, and sums over a tile's row (256
// values) or column (32) within 2^30: the tiles sum in int32 (one shuffle per step, not two) and carry in int64.
template <int D>
__device__ __forceinline__ void plane_values(const MatchPlanes& colour, const GrayView& grey, CovarianceLayout layout,
                                             int x, int y, int* v) {
    int f[max_cov_features] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
    if (x < grey.width) pixel_features(colour, grey, layout, x, y, f);
#pragma unroll
    for (int k = 0, i = 0, j = 0; k < plane_count<D>(); ++k) {
        if (k < D) {
            v[k] = f[k];
        } else {
            v[k] = f[i] * f[j];
            if (++j == D) j = ++i;
        }
    }
}

// Where a tile's carries lie in CovarianceIntegralsGpu::carries_: column sums [bands][width][planes], row sums
// [height][tiles][planes], tile sums [bands][tiles][planes].
struct CarryLayout {
    int width, height, planes, tiles, bands;

    __host__ __device__ std::size_t columns(int band, int x) const {
        return (static_cast<std::size_t>(band) * width + x) * planes;
    }
    __host__ __device__ std::size_t rows(int y, int tile) const {
        return static_cast<std::size_t>(bands) * width * planes + (static_cast<std::size_t>(y) * tiles + tile) * planes;
    }
    __host__ __device__ std::size_t tile_sums(int band, int tile) const {
        return rows(height, 0) + (static_cast<std::size_t>(band) * tiles + tile) * planes;
    }
};

// Step 1, one block per tile. Each row's values are summed within each warp by shuffles, the warps' sums kept in
// shared memory (dynamic: kWarps x kBandRows x planes) and added up once at the end; the columns' sums stay in
// registers, summed over the block at the end for the tile's sums.
template <int D>
__global__ void __launch_bounds__(kTileWidth) covariance_totals(MatchPlanes colour, GrayView grey,
                                                                CovarianceLayout layout, CarryLayout at,
                                                                long long* carries) {
    constexpr int P = plane_count<D>();
    extern __shared__ long long warp_rows[];  // (a row's warp sums are ints; stored wide, summed in int64)
    __shared__ long long warp_columns[kWarps][P];
    const int tile = blockIdx.x, band = blockIdx.y, x = tile * kTileWidth + threadIdx.x, y0 = band * kBandRows;
    const int rows = min(kBandRows, grey.height - y0), lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    int column[P];
#pragma unroll
    for (int k = 0; k < P; ++k) column[k] = 0;
    for (int r = 0; r < rows; ++r) {
        int v[P];
        plane_values<D>(colour, grey, layout, x, y0 + r, v);
#pragma unroll
        for (int k = 0; k < P; ++k) {
            column[k] += v[k];
            const int row = __reduce_add_sync(kFullMask, v[k]);
            if (lane == 0) warp_rows[(warp * kBandRows + r) * P + k] = row;
        }
    }
#pragma unroll
    for (int k = 0; k < P; ++k) {
        if (x < grey.width) carries[at.columns(band, x) + k] = column[k];
        long long sum = column[k];  // a tile's column sums reach 2^35: int64 from here
        for (int offset = 16; offset > 0; offset >>= 1) sum += __shfl_xor_sync(kFullMask, sum, offset);
        if (lane == 0) warp_columns[warp][k] = sum;
    }
    __syncthreads();
    for (int i = threadIdx.x; i < rows * P; i += kTileWidth) {
        long long sum = 0;
        for (int w = 0; w < kWarps; ++w) sum += warp_rows[w * kBandRows * P + i];
        carries[at.rows(y0 + i / P, tile) + i % P] = sum;
    }
    if (threadIdx.x < P) {
        long long sum = 0;
        for (int w = 0; w < kWarps; ++w) sum += warp_columns[w][threadIdx.x];
        carries[at.tile_sums(band, tile) + threadIdx.x] = sum;
    }
}

// Step 2: exclusive running sums along the middle index of data[outer][n][inner], in place; one thread per (outer,
// inner) line, 8 loads in flight before any store (the compiler cannot move a load above a store to the same array).
constexpr int kBatch = 8;

__global__ void exclusive_running_sums(long long* data, int outer, int n, int inner) {
    const long long line = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (line >= static_cast<long long>(outer) * inner) return;
    long long* p = data + (line / inner) * n * inner + line % inner;
    long long running = 0;
    for (int j0 = 0; j0 < n; j0 += kBatch) {
        long long values[kBatch];
#pragma unroll
        for (int b = 0; b < kBatch; ++b) values[b] = j0 + b < n ? p[static_cast<long long>(j0 + b) * inner] : 0;
#pragma unroll
        for (int b = 0; b < kBatch; ++b) {
            if (j0 + b < n) p[static_cast<long long>(j0 + b) * inner] = running;
            running += values[b];
        }
    }
}

void running_sums(long long* data, int outer, int n, int inner, cudaStream_t stream) {
    const long long lines = static_cast<long long>(outer) * inner;
    exclusive_running_sums<<<static_cast<unsigned>((lines + 255) / 256), 256, 0, stream>>>(data, outer, n, inner);
    CASCADE_CUDA_CHECK(cudaGetLastError());
}

// Each plane's inclusive sum along the warp, in place; lane 31 leaves the warp's totals in totals[warp].
template <int P, class T>
__device__ __forceinline__ void warp_scan(T* v, long long (*totals)[P], int lane, int warp) {
#pragma unroll
    for (int k = 0; k < P; ++k) {
        for (int offset = 1; offset < 32; offset <<= 1) {
            const T n = __shfl_up_sync(kFullMask, v[k], offset);
            if (lane >= offset) v[k] += n;
        }
        if (lane == 31) totals[warp][k] = v[k];
    }
}

// Step 3, one block per tile: the integral rows y0 + 1 .. y0 + rows at the tile's columns. acc (dynamic shared,
// kTileWidth x planes) holds the integral row of the tile's columns: first the row above the band (a virtual row
// whose values are the column sums above the band, its left carry the corner's), then each row in turn.
template <int D>
__global__ void __launch_bounds__(kTileWidth) covariance_tiles(MatchPlanes colour, GrayView grey,
                                                               CovarianceLayout layout, CarryLayout at,
                                                               const long long* carries, std::int64_t* sums) {
    constexpr int P = plane_count<D>();
    __shared__ long long warp_totals[kWarps][P], warp_before[kWarps][P];
    extern __shared__ long long acc[];
    const int tile = blockIdx.x, band = blockIdx.y, width = grey.width, x0 = tile * kTileWidth;
    const int x = x0 + threadIdx.x, y0 = band * kBandRows, rows = min(kBandRows, grey.height - y0);
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32, count = min(kTileWidth, width - x0) * P;
    const std::size_t stride = static_cast<std::size_t>(width + 1) * P;  // elements per integral row
    if (band == 0)
        for (int i = threadIdx.x; i < count + (tile == 0 ? P : 0); i += kTileWidth)
            sums[static_cast<std::size_t>(tile == 0 ? 0 : (x0 + 1) * P) + i] = 0;  // integral row 0
    if (tile == 0)
        for (int i = threadIdx.x; i < rows * P; i += kTileWidth)
            sums[(y0 + 1 + i / P) * stride + i % P] = 0;  // integral column 0
#pragma unroll
    for (int k = 0; k < P; ++k) acc[threadIdx.x * P + k] = 0;
    for (int r = -1; r < rows; ++r) {
        long long v[P];  // each plane's sum along the warp up to this thread's column
        const long long* carry = carries + (r < 0 ? at.tile_sums(band, tile) : at.rows(y0 + r, tile));
        if (r < 0) {
#pragma unroll
            for (int k = 0; k < P; ++k) v[k] = x < width ? carries[at.columns(band, x) + k] : 0;
            warp_scan<P>(v, warp_totals, lane, warp);
        } else {
            int values[P];
            plane_values<D>(colour, grey, layout, x, y0 + r, values);
            warp_scan<P>(values, warp_totals, lane, warp);
#pragma unroll
            for (int k = 0; k < P; ++k) v[k] = values[k];
        }
        __syncthreads();  // the warps' totals are in; the previous row's stores have read acc
        for (int i = threadIdx.x; i < kWarps * P; i += kTileWidth) {  // before warp w in plane k: carry, warps left
            const int w = i / P, k = i % P;
            long long before = carry[k];
            for (int left = 0; left < w; ++left) before += warp_totals[left][k];
            warp_before[w][k] = before;
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < P; ++k) acc[threadIdx.x * P + k] += warp_before[warp][k] + v[k];
        __syncthreads();  // acc holds the row; the totals are read
        if (r < 0) continue;
        std::int64_t* out = sums + (y0 + r + 1) * stride + static_cast<std::size_t>(x0 + 1) * P;
        for (int i = threadIdx.x; i < count; i += kTileWidth) out[i] = acc[i];
    }
}

template <int D>
void launch(const MatchPlanes& colour, const GrayView& grey, CovarianceLayout layout, const CarryLayout& at,
            long long* carries, std::int64_t* sums, cudaStream_t stream, KernelTimer& timer) {
    constexpr int P = plane_count<D>();
    const dim3 grid(static_cast<unsigned>(at.tiles), static_cast<unsigned>(at.bands));
    const int shared = kTileWidth * P * static_cast<int>(sizeof(long long));  // = kWarps x kBandRows x P too
    static_assert(kWarps * kBandRows == kTileWidth, "step 1's and step 3's dynamic shared memory are one size");
    CASCADE_CUDA_CHECK(cudaFuncSetAttribute(covariance_totals<D>, cudaFuncAttributeMaxDynamicSharedMemorySize, shared));
    CASCADE_CUDA_CHECK(cudaFuncSetAttribute(covariance_tiles<D>, cudaFuncAttributeMaxDynamicSharedMemorySize, shared));
    timer.begin("totals", stream);
    covariance_totals<D><<<grid, kTileWidth, shared, stream>>>(colour, grey, layout, at, carries);
    CASCADE_CUDA_CHECK(cudaGetLastError());
    timer.end(stream);
    timer.begin("carries", stream);
    running_sums(carries, 1, at.bands, at.width * P, stream);                   // columns: down the bands
    running_sums(carries + at.rows(0, 0), at.height, at.tiles, P, stream);      // rows: across the tiles
    running_sums(carries + at.tile_sums(0, 0), at.bands, at.tiles, P, stream);  // corners: across the tiles,
    running_sums(carries + at.tile_sums(0, 0), 1, at.bands, at.tiles * P, stream);  // then down the bands
    timer.end(stream);
    timer.begin("integrals", stream);
    covariance_tiles<D><<<grid, kTileWidth, shared, stream>>>(colour, grey, layout, at, carries, sums);
    CASCADE_CUDA_CHECK(cudaGetLastError());
    timer.end(stream);
}

}  // namespace

void CovarianceIntegralsGpu::build(const MatchPlanes& colour, const GrayView& grey, CovarianceLayout layout,
                                   cudaStream_t stream, KernelTimer& timer) {
    layout_ = layout;
    width_ = grey.width;
    height_ = grey.height;
    const CarryLayout at{width_, height_, layout.planes(), (width_ + kTileWidth - 1) / kTileWidth,
                         (height_ + kBandRows - 1) / kBandRows};
    sums_.resize(elements());
    carries_.resize(at.tile_sums(at.bands, 0));
    const auto run = layout.dim() == 3 ? launch<3> : layout.dim() == 5 ? launch<5> : layout.dim() == 7 ? launch<7>
                                                                                                   : launch<9>;
    run(colour, grey, layout, at, carries_.get(), sums_.get(), stream, timer);
}

}  // namespace cascade::gpu
