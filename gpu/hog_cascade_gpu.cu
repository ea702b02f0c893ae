#include "gpu/hog_cascade_gpu.hpp"

#include <stdexcept>
#include <string>

#include "common/cascade_eval.hpp"
#include "common/error.hpp"
#include "common/hog_eval.hpp"
#include "gpu/compaction.cuh"
#include "gpu/cuda_check.hpp"
#include "gpu/hog_gpu_detector.hpp"
#include "gpu/level_lookup.cuh"
#include "gpu/skip_rule_gpu.hpp"
#include "gpu/warp_responses.cuh"

namespace cascade::gpu {

namespace {

constexpr int kThreads = kTileWidth * kTileRows;  // 256: one window position per thread
constexpr int kWarps = kThreads / 32;
constexpr int kSharedItems = kSharedTileRows / kTileRows;
constexpr int kSharedList = kThreads * kSharedItems;

// Stages and weak learners (block, 36 weights, bias, vote): the threads of a warp evaluate the same weak
// learner at the same time, so constant memory broadcasts every weight.
__constant__ Stage c_stages[kMaxHogGpuStages];
__constant__ HogWeak c_weaks[kMaxHogGpuWeaks];

// A level's integral histograms in global memory, through the read-only cache: the Sampler of hog_eval.hpp.
struct HistogramSampler {
    const std::uint32_t* data;
    int stride;
    __device__ __forceinline__ std::uint32_t at(int x, int y, int bin) const {
        return __ldg(data + y * stride + x * kHogBins + bin);
    }
};

struct ModelRef {
    Size window;
    SumPolicy policy;
    int num_stages;
    const GpuLevel* levels;
    int num_levels;
    const std::uint32_t* integrals;

    // Built in the kernel, so that the compiler sees the constant-memory arrays behind the view.
    __device__ __forceinline__ HogCascadeView view() const {
        HogCascadeView v;
        v.window = window;
        v.policy = policy;
        v.num_stages = num_stages;
        v.stages = c_stages;
        v.weaks = c_weaks;
        return v;
    }
    __device__ __forceinline__ HistogramSampler sampler(const GpuLevel& l) const {
        return {integrals + l.integral_offset, l.integral_stride};
    }
};

__device__ __forceinline__ int run_group(const HogCascadeView& view, const HistogramSampler& sampler, int x, int y,
                                         int begin, int end, double& sum) {
    return run_stages(view, HogWindow<HistogramSampler>{view, sampler, x, y}, begin, end, sum);
}

// run_group by a whole warp on one window (every lane passes the same arguments): the lanes compute a stage's
// weak learners' responses side by side, 32 at a time, and every lane adds them up in the one-thread order
// (gpu/warp_responses.cuh). Why: windows that survive the first stages are few, and one thread would evaluate
// their 100-odd weak learners one after another; a warp takes the latency of one weak learner per 32 instead.
__device__ int run_group_warp(const HogCascadeView& view, const HistogramSampler& sampler, int x, int y, int begin,
                              int end, double& sum) {
    const WarpResponses<HogWindow<HistogramSampler>> responses{{view, sampler, x, y}, weak_count(view), view.stages};
    return run_stages(view, responses, begin, end, sum);
}

// The first group [0, end) on every window position of one 32 x 8 tile, one thread each.
template <class Compactor>
__global__ void __launch_bounds__(kThreads)
    first_group_kernel(ModelRef m, int end, std::uint8_t* stage0_rejected, Survivor* list, int* count) {
    __shared__ typename Compactor::TempStorage temp;
    const int li = find_level(m.levels, m.num_levels, blockIdx.x, &GpuLevel::first_tile);
    const GpuLevel l = m.levels[li];
    const int t = blockIdx.x - l.first_tile;
    const int gx = (t % l.tiles_x) * kTileWidth + threadIdx.x % kTileWidth;
    const int gy = (t / l.tiles_x) * kTileRows + threadIdx.x / kTileWidth;
    Survivor s{};
    bool survives = false;
    if (gx < l.grid_width && gy < l.grid_height) {
        s = {static_cast<std::uint16_t>(gx * l.step), static_cast<std::uint16_t>(gy * l.step), li, 0.0};
        const int rejected = run_group(m.view(), m.sampler(l), s.x, s.y, 0, end, s.sum);
        survives = rejected == end;
        if (stage0_rejected) stage0_rejected[l.first_position + gy * l.grid_width + gx] = rejected == 0;
    }
    Compactor::push(temp, survives, s, list, count);
}

// Group [begin, end) on a survivor list, one warp per survivor (run_group_warp), a fixed grid looping over the
// list (its length is only known on the device). Lane 0 offers the survivor to the compactor.
template <class Compactor>
__global__ void __launch_bounds__(kThreads) survivor_kernel(ModelRef m, int begin, int end, const Survivor* in,
                                                            const int* in_count, Survivor* out, int* out_count) {
    __shared__ typename Compactor::TempStorage temp;
    const int warp = threadIdx.x / 32;
    const int n = *in_count;
    for (int first = blockIdx.x * kWarps; first < n; first += gridDim.x * kWarps) {  // uniform per block
        const int i = first + warp;
        Survivor s{};
        bool survives = false;
        if (i < n) {  // uniform per warp
            s = in[i];
            survives = run_group_warp(m.view(), m.sampler(m.levels[s.level]), s.x, s.y, begin, end, s.sum) == end;
        }
        Compactor::push(temp, survives && threadIdx.x % 32 == 0, s, out, out_count);
    }
}

struct GroupEnds {
    int count;
    int end[kMaxGroups];
};

// The shared-memory strategy: one block takes 32 x 32 positions through every group; between groups its
// survivors (index in the tile + running sum) are compacted into the other of two shared-memory lists. The
// first group runs one thread per position, later groups one warp per survivor (run_group_warp).
__global__ void __launch_bounds__(kThreads) shared_lists_kernel(ModelRef m, GroupEnds groups,
                                                                std::uint8_t* stage0_rejected, Survivor* accepted,
                                                                int* counts) {
    __shared__ double sums[2][kSharedList];
    __shared__ std::uint16_t index[2][kSharedList];
    __shared__ int count[kMaxGroups];
    __shared__ int base;
    const int li = find_level(m.levels, m.num_levels, blockIdx.x, &GpuLevel::first_shared_tile);
    const GpuLevel l = m.levels[li];
    const int t = blockIdx.x - l.first_shared_tile;
    const int gx0 = (t % l.tiles_x) * kTileWidth, gy0 = (t / l.tiles_x) * kSharedTileRows;
    if (threadIdx.x < kMaxGroups) count[threadIdx.x] = 0;
    __syncthreads();

    const HogCascadeView view = m.view();
    const HistogramSampler sampler = m.sampler(l);
#pragma unroll 1
    for (int k = 0; k < kSharedItems; ++k) {
        const int p = threadIdx.x + k * kThreads;
        const int gx = gx0 + p % kTileWidth, gy = gy0 + p / kTileWidth;
        if (gx >= l.grid_width || gy >= l.grid_height) continue;
        double sum = 0.0;
        const int rejected = run_group(view, sampler, gx * l.step, gy * l.step, 0, groups.end[0], sum);
        if (stage0_rejected) stage0_rejected[l.first_position + gy * l.grid_width + gx] = rejected == 0;
        if (rejected == groups.end[0]) {
            const int slot = atomicAdd(&count[0], 1);
            index[0][slot] = static_cast<std::uint16_t>(p);
            sums[0][slot] = sum;
        }
    }
    __syncthreads();

    int cur = 0;
    const int warp = threadIdx.x / 32;
    for (int g = 1; g < groups.count; ++g) {
        const int n = count[g - 1], next = cur ^ 1;
        for (int i = warp; i < n; i += kWarps) {
            const int p = index[cur][i];
            double sum = sums[cur][i];
            const int x = (gx0 + p % kTileWidth) * l.step, y = (gy0 + p / kTileWidth) * l.step;
            const int decided = run_group_warp(view, sampler, x, y, groups.end[g - 1], groups.end[g], sum);
            if (decided == groups.end[g] && threadIdx.x % 32 == 0) {
                const int slot = atomicAdd(&count[g], 1);
                index[next][slot] = static_cast<std::uint16_t>(p);
                sums[next][slot] = sum;
            }
        }
        __syncthreads();
        cur = next;
    }

    const int last = groups.count - 1, n = count[last];
    if (threadIdx.x == 0)
        base = n > 0 ? atomicAdd(&counts[last], n) : 0;
    else if (threadIdx.x <= last && count[threadIdx.x - 1] > 0)
        atomicAdd(&counts[threadIdx.x - 1], count[threadIdx.x - 1]);
    __syncthreads();
    for (int i = threadIdx.x; i < n; i += kThreads) {
        const int p = index[cur][i];
        accepted[base + i] = {static_cast<std::uint16_t>((gx0 + p % kTileWidth) * l.step),
                              static_cast<std::uint16_t>((gy0 + p / kTileWidth) * l.step), li, sums[cur][i]};
    }
}

struct Launcher {
    const HogCascadeTarget& t;
    ModelRef m;
    cudaStream_t stream;
    KernelTimer& timer;

    template <class Compactor>
    void compacting(const std::vector<int>& ends, const char* name) {
        timer.begin(std::string(name) + "/0", stream);
        if (t.tiles > 0)
            first_group_kernel<Compactor><<<t.tiles, kThreads, 0, stream>>>(m, ends[0], t.stage0_rejected, t.lists[0],
                                                                           &t.counts[0]);
        CASCADE_CUDA_CHECK(cudaGetLastError());
        timer.end(stream);
        for (std::size_t g = 1; g < ends.size(); ++g) {
            timer.begin(std::string(name) + "/" + std::to_string(g), stream);
            survivor_kernel<Compactor><<<t.survivor_blocks, kThreads, 0, stream>>>(
                m, ends[g - 1], ends[g], t.lists[(g - 1) % 2], &t.counts[g - 1], t.lists[g % 2], &t.counts[g]);
            CASCADE_CUDA_CHECK(cudaGetLastError());
            timer.end(stream);
        }
    }

    void shared(const std::vector<int>& ends) {
        GroupEnds groups{static_cast<int>(ends.size()), {}};
        for (std::size_t g = 0; g < ends.size(); ++g) groups.end[g] = ends[g];
        timer.begin("cascade_shared", stream);
        if (t.shared_tiles > 0)
            shared_lists_kernel<<<t.shared_tiles, kThreads, 0, stream>>>(m, groups, t.stage0_rejected,
                                                                         t.lists[(groups.count - 1) % 2], t.counts);
        CASCADE_CUDA_CHECK(cudaGetLastError());
        timer.end(stream);
    }

    void run(const std::vector<int>& ends, Compaction compaction) {
        switch (compaction) {
            case Compaction::none: return compacting<GlobalAtomicCompactor>({t.num_stages}, "cascade_none");
            case Compaction::global_atomic: return compacting<GlobalAtomicCompactor>(ends, "cascade_global");
            case Compaction::hybrid: return compacting<SharedCounterCompactor>(ends, "cascade_hybrid");
            case Compaction::prefix_sum: return compacting<BlockScanCompactor<kThreads>>(ends, "cascade_prefix");
            case Compaction::shared_atomic: return shared(ends);
            case Compaction::automatic: break;
        }
        throw std::logic_error("run_hog_cascade: no concrete compaction strategy");
    }
};

}  // namespace

void upload_hog_constants(const HogCascade& cascade, cudaStream_t stream) {
    if (cascade.stages.size() > static_cast<std::size_t>(kMaxHogGpuStages) ||
        cascade.weaks.size() > static_cast<std::size_t>(kMaxHogGpuWeaks))
        throw InputError("GPU HoG detector", "the model has " + std::to_string(cascade.stages.size()) + " stages and " +
                                                 std::to_string(cascade.weaks.size()) +
                                                 " weak learners; constant memory holds at most " +
                                                 std::to_string(kMaxHogGpuStages) + " stages and " +
                                                 std::to_string(kMaxHogGpuWeaks) + " weak learners");
    CASCADE_CUDA_CHECK(cudaMemcpyToSymbolAsync(c_stages, cascade.stages.data(), cascade.stages.size() * sizeof(Stage), 0,
                                               cudaMemcpyHostToDevice, stream));
    CASCADE_CUDA_CHECK(cudaMemcpyToSymbolAsync(c_weaks, cascade.weaks.data(), cascade.weaks.size() * sizeof(HogWeak), 0,
                                               cudaMemcpyHostToDevice, stream));
}

CascadeResult run_hog_cascade(const HogCascadeTarget& t, const std::vector<int>& group_ends, Compaction compaction,
                              cudaStream_t stream, KernelTimer& timer) {
    const std::vector<int> ends = compaction == Compaction::none ? std::vector<int>{t.num_stages} : group_ends;
    if (ends.empty() || ends.size() > static_cast<std::size_t>(kMaxGroups))
        throw std::logic_error("run_hog_cascade: between 1 and " + std::to_string(kMaxGroups) + " groups of stages");
    const ModelRef m{t.window, t.policy, t.num_stages, t.levels, t.num_levels, t.integrals};
    Launcher{t, m, stream, timer}.run(ends, compaction);

    const int last = static_cast<int>(ends.size()) - 1;
    CascadeResult result{last % 2, last};
    if (t.stage0_rejected) {
        const SkipTarget skip{t.levels, t.num_levels, t.grid_rows, t.stage0_rejected, t.visited};
        resolve_skips(skip, stream, timer);
        filter_visited(skip, t.lists[last % 2], &t.counts[last], t.lists[(last + 1) % 2], &t.counts[last + 1],
                       t.survivor_blocks, stream, timer);
        result = {(last + 1) % 2, last + 1};
    }
    return result;
}

}  // namespace cascade::gpu
