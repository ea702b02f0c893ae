#include <cub/block/block_scan.cuh>

#include "gpu/cuda_check.hpp"
#include "gpu/level_lookup.cuh"
#include "gpu/skip_rule.hpp"
#include "gpu/skip_rule_gpu.hpp"

namespace cascade::gpu {

namespace {

constexpr int kThreads = 128;
constexpr int kItems = 8;

// The composition of every earlier tile of the row, for CUB's scan of the next tile.
struct SkipPrefix {
    unsigned before;
    __device__ unsigned operator()(unsigned tile) {
        const unsigned out = before;
        before = SkipCompose{}(before, tile);
        return out;
    }
};

__global__ void __launch_bounds__(kThreads) resolve_skips_kernel(SkipTarget t) {
    using Scan = cub::BlockScan<unsigned, kThreads>;
    __shared__ typename Scan::TempStorage temp;
    const GpuLevel l = t.levels[find_level(t.levels, t.num_levels, blockIdx.x, &GpuLevel::first_grid_row)];
    const int row = l.first_position + (blockIdx.x - l.first_grid_row) * l.grid_width;
    const std::uint8_t* rejected = t.stage0_rejected + row;
    std::uint8_t* visited = t.visited + row;
    SkipPrefix prefix{kSkipIdentity};
    for (int x0 = 0; x0 < l.grid_width; x0 += kThreads * kItems) {
        unsigned f[kItems];
#pragma unroll
        for (int i = 0; i < kItems; ++i) {
            const int x = x0 + threadIdx.x * kItems + i;
            f[i] = x < l.grid_width ? skip_step(rejected[x] != 0) : kSkipIdentity;
        }
        Scan(temp).ExclusiveScan(f, f, SkipCompose{}, prefix);
#pragma unroll
        for (int i = 0; i < kItems; ++i) {
            const int x = x0 + threadIdx.x * kItems + i;
            if (x < l.grid_width) visited[x] = skip_apply(f[i], true) ? 1 : 0;
        }
        __syncthreads();
    }
}

__global__ void filter_visited_kernel(SkipTarget t, const Survivor* in, const int* in_count, Survivor* out,
                                      int* out_count) {
    const int n = *in_count;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        const Survivor s = in[i];
        if (t.visited[position_of(t.levels[s.level], s)]) out[atomicAdd(out_count, 1)] = s;
    }
}

}  // namespace

void resolve_skips(const SkipTarget& t, cudaStream_t stream, KernelTimer& timer) {
    timer.begin("resolve_skips", stream);
    if (t.grid_rows > 0) resolve_skips_kernel<<<t.grid_rows, kThreads, 0, stream>>>(t);
    CASCADE_CUDA_CHECK(cudaGetLastError());
    timer.end(stream);
}

void filter_visited(const SkipTarget& t, const Survivor* in, const int* in_count, Survivor* out, int* out_count,
                    int blocks, cudaStream_t stream, KernelTimer& timer) {
    timer.begin("filter_visited", stream);
    filter_visited_kernel<<<blocks, 256, 0, stream>>>(t, in, in_count, out, out_count);
    CASCADE_CUDA_CHECK(cudaGetLastError());
    timer.end(stream);
}

}  // namespace cascade::gpu
