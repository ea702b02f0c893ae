#include "gpu/cascade_gpu.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "common/cascade_eval.hpp"
#include "common/error.hpp"
#include "gpu/compaction.cuh"
#include "gpu/cuda_check.hpp"
#include "gpu/level_lookup.cuh"
#include "gpu/samplers.cuh"
#include "gpu/skip_rule_gpu.hpp"

namespace cascade::gpu {

namespace {

constexpr int kThreads = kTileWidth * kTileRows;  // 256: one window position per thread
constexpr int kSharedItems = kSharedTileRows / kTileRows;
constexpr int kSharedList = kThreads * kSharedItems;
// The shared-memory strategy's survivor list (running sums, then tile indices) in dynamic shared memory.
constexpr int kSharedListBytes = kSharedList * static_cast<int>(sizeof(double) + sizeof(std::uint16_t));

// Dynamic shared memory of every kernel here: integral tiles, and the shared-memory strategy's list.
extern __shared__ __align__(16) unsigned char dynamic_smem[];

// The model's stages and weak learners: read uniformly by the threads of a warp, so constant memory
// broadcasts them. The response tables are indexed by each thread's LBP code and stay in global memory.
__constant__ Stage c_stages[kMaxGpuStages];
__constant__ LbpWeak c_weaks[kMaxGpuWeaks];

struct ModelRef {
    Size window;
    SumPolicy policy;
    int num_stages;
    const float* responses;
    const TileWeak* tile_weaks;  // for windows read from integral tiles
    int tile_pitch;
};

// The view that run_stages reads; built in the kernel so that the compiler sees the constant-memory arrays.
__device__ __forceinline__ LbpCascadeView model_view(const ModelRef& m) {
    LbpCascadeView v;
    v.window = m.window;
    v.policy = m.policy;
    v.num_stages = m.num_stages;
    v.stages = c_stages;
    v.weaks = c_weaks;
    v.responses = m.responses;
    return v;
}

// Response of weak learner i for a window in an integral tile (LbpWindow's, with the corner offsets read from
// the launch's TileWeak table instead of computed from the feature: one 16-byte load, and per corner one add
// to the window's address).
struct TileWindow {
    const float* responses;
    const TileWeak* weaks;
    const std::uint32_t* origin;  // the window's top-left element in the tile

    __device__ __forceinline__ float operator()(int i) const {
        const int4 w = __ldg(reinterpret_cast<const int4*>(weaks) + i);
        return responses[w.w + lbp_code(origin, LbpSteps{w.x, w.y, w.z})];
    }
};

// Stages [begin, end) on one window: returns where it stopped (run_stages: the rejecting stage, `end`, or
// num_stages when a stage accepted it early).
template <class Sampler>
__device__ __forceinline__ int run_group(const ModelRef& m, const LbpCascadeView& view, const Sampler& sampler, int x,
                                         int y, int begin, int end, double& sum) {
    if constexpr (std::is_same_v<Sampler, TileIntegral>)
        return run_stages(view, TileWindow{m.responses, m.tile_weaks, sampler.origin(x, y)}, begin, end, sum);
    else
        return run_stages(view, LbpWindow<Sampler>{view, sampler, x, y}, begin, end, sum);
}

// Whether a window that stopped at `reached` goes on after group [.., end): passed or accepted. A window
// accepted before the last stage is marked so that later groups only pass it on (gpu/survivor.hpp).
__device__ __forceinline__ bool goes_on(int reached, int end, Survivor& s) {
    if (reached > end) s.level |= kAcceptedEarly;
    return reached >= end;
}

// The sampler a block's windows read: its integral tile in shared memory (kTiled: loaded here, by every
// thread of the block) or the level's integral image itself.
template <bool kTiled, class Integrals>
__device__ __forceinline__ auto block_sampler(const Integrals& integrals, const ModelRef& m, const GpuLevel& l, int gx0,
                                              int gy0, int rows, std::uint32_t* words) {
    if constexpr (kTiled)
        return load_tile(integrals.level(l), words, window_region(l, m.window, gx0, gy0, kTileWidth, rows),
                         m.tile_pitch);
    else
        return integrals.level(l);
}

struct LevelsRef {
    const GpuLevel* levels;
    int count;
};

struct ListRef {
    Survivor* list;
    int* count;
};

// The first group [0, end) on every window position of one 32 x 8 tile, one thread each.
template <class Integrals, class Compactor, bool kTiled>
__global__ void __launch_bounds__(kThreads)
    first_group_kernel(ModelRef m, LevelsRef lv, Integrals integrals, int end, std::uint8_t* stage0_rejected, ListRef out) {
    __shared__ typename Compactor::TempStorage temp;
    const int li = find_level(lv.levels, lv.count, blockIdx.x, &GpuLevel::first_tile);
    const GpuLevel l = lv.levels[li];
    const int t = blockIdx.x - l.first_tile;
    const int gx0 = (t % l.tiles_x) * kTileWidth, gy0 = (t / l.tiles_x) * kTileRows;
    const int gx = gx0 + threadIdx.x % kTileWidth, gy = gy0 + threadIdx.x / kTileWidth;
    const auto sampler = block_sampler<kTiled>(integrals, m, l, gx0, gy0, kTileRows,
                                               reinterpret_cast<std::uint32_t*>(dynamic_smem));
    Survivor s{};
    bool survives = false;
    if (gx < l.grid_width && gy < l.grid_height) {
        s = {static_cast<std::uint16_t>(gx * l.step), static_cast<std::uint16_t>(gy * l.step), li, 0.0};
        const LbpCascadeView view = model_view(m);
        const int reached = run_group(m, view, sampler, s.x, s.y, 0, end, s.sum);
        survives = goes_on(reached, end, s);
        if (stage0_rejected) stage0_rejected[l.first_position + gy * l.grid_width + gx] = reached == 0;
    }
    Compactor::push(temp, survives, s, out.list, out.count);
}

// Group [begin, end) on a survivor list, a fixed grid looping over it (its length is only known on the device).
template <class Integrals, class Compactor>
__global__ void __launch_bounds__(kThreads) survivor_kernel(ModelRef m, LevelsRef lv, Integrals integrals, int begin,
                                                            int end, const Survivor* in, const int* in_count, ListRef out) {
    __shared__ typename Compactor::TempStorage temp;
    const int n = *in_count;
    const LbpCascadeView view = model_view(m);
    for (int first = blockIdx.x * kThreads; first < n; first += gridDim.x * kThreads) {  // uniform per block
        const int i = first + threadIdx.x;
        Survivor s{};
        bool survives = false;
        if (i < n) {
            s = in[i];
            if (s.level & kAcceptedEarly) {
                survives = true;
                if (end == m.num_stages) s.level &= ~kAcceptedEarly;
            } else {
                const auto sampler = integrals.level(lv.levels[s.level]);
                const int reached = run_group(m, view, sampler, s.x, s.y, begin, end, s.sum);
                survives = goes_on(reached, end, s);
            }
        }
        Compactor::push(temp, survives, s, out.list, out.count);
    }
}

struct GroupEnds {
    int count;
    int end[kMaxGroups];
};

// The shared-memory strategy: one block takes a 32 x 32 tile of positions through every group; between groups
// its survivors (tile index + running sum) are compacted in place in one shared-memory list (one list, not two:
// the shared memory it leaves goes to L1, which the response tables live in; 5% faster at 1080p). A tile
// index with kAcceptedIndex set is a window accepted early, passed on unevaluated.
constexpr std::uint16_t kAcceptedIndex = 0x8000;
static_assert(kSharedTileRows * kTileWidth <= kAcceptedIndex, "tile indices leave the top bit free");

template <class Integrals, bool kTiled>
__global__ void __launch_bounds__(kThreads) shared_lists_kernel(ModelRef m, LevelsRef lv, Integrals integrals,
                                                                GroupEnds groups, std::uint8_t* stage0_rejected,
                                                                Survivor* accepted, int* counts) {
    double* sums = reinterpret_cast<double*>(dynamic_smem);  // [kSharedList]
    std::uint16_t* index = reinterpret_cast<std::uint16_t*>(dynamic_smem + kSharedList * sizeof(double));
    __shared__ int count[kMaxGroups];
    __shared__ int base;
    const int li = find_level(lv.levels, lv.count, blockIdx.x, &GpuLevel::first_shared_tile);
    const GpuLevel l = lv.levels[li];
    const int t = blockIdx.x - l.first_shared_tile;
    const int gx0 = (t % l.tiles_x) * kTileWidth, gy0 = (t / l.tiles_x) * kSharedTileRows;
    if (threadIdx.x < kMaxGroups) count[threadIdx.x] = 0;
    const auto sampler = block_sampler<kTiled>(integrals, m, l, gx0, gy0, kSharedTileRows,
                                               reinterpret_cast<std::uint32_t*>(dynamic_smem + kSharedListBytes));
    __syncthreads();

    const LbpCascadeView view = model_view(m);
#pragma unroll 1
    for (int k = 0; k < kSharedItems; ++k) {
        const int p = threadIdx.x + k * kThreads;
        const int gx = gx0 + p % kTileWidth, gy = gy0 + p / kTileWidth;
        if (gx >= l.grid_width || gy >= l.grid_height) continue;
        double sum = 0.0;
        const int reached = run_group(m, view, sampler, gx * l.step, gy * l.step, 0, groups.end[0], sum);
        if (stage0_rejected) stage0_rejected[l.first_position + gy * l.grid_width + gx] = reached == 0;
        if (reached >= groups.end[0]) {
            const int slot = atomicAdd(&count[0], 1);
            index[slot] = static_cast<std::uint16_t>(p | (reached > groups.end[0] ? kAcceptedIndex : 0));
            sums[slot] = sum;
        }
    }
    __syncthreads();

    for (int g = 1; g < groups.count; ++g) {
        const int n = count[g - 1];
        // In place: every entry of a chunk is read before any is written back, and the slots written never
        // pass the entries read so far.
        for (int first = 0; first < n; first += kThreads) {  // uniform per block
            const int i = first + threadIdx.x;
            std::uint16_t entry = 0;
            double sum = 0.0;
            if (i < n) {
                entry = index[i];
                sum = sums[i];
            }
            __syncthreads();
            bool on = i < n;
            if (on && !(entry & kAcceptedIndex)) {
                const int x = (gx0 + entry % kTileWidth) * l.step, y = (gy0 + entry / kTileWidth) * l.step;
                const int reached = run_group(m, view, sampler, x, y, groups.end[g - 1], groups.end[g], sum);
                on = reached >= groups.end[g];
                if (reached > groups.end[g]) entry |= kAcceptedIndex;
            }
            if (on) {
                const int slot = atomicAdd(&count[g], 1);
                index[slot] = entry;
                sums[slot] = sum;
            }
        }
        __syncthreads();
    }

    const int last = groups.count - 1, n = count[last];
    if (threadIdx.x == 0)
        base = n > 0 ? atomicAdd(&counts[last], n) : 0;
    else if (threadIdx.x <= last && count[threadIdx.x - 1] > 0)
        atomicAdd(&counts[threadIdx.x - 1], count[threadIdx.x - 1]);
    __syncthreads();
    for (int i = threadIdx.x; i < n; i += kThreads) {
        const int p = index[i] & ~kAcceptedIndex;
        accepted[base + i] = {static_cast<std::uint16_t>((gx0 + p % kTileWidth) * l.step),
                              static_cast<std::uint16_t>((gy0 + p / kTileWidth) * l.step), li,
                              sums[i]};
    }
}

// Blocks of a kernel that loops over survivors: enough to fill every multiprocessor, once per instantiation.
template <class Kernel>
int resident_blocks(Kernel kernel) {
    int device = 0, sms = 0, per_sm = 0;
    CASCADE_CUDA_CHECK(cudaGetDevice(&device));
    CASCADE_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    CASCADE_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kThreads, 0));
    return sms * std::max(per_sm, 1);
}

// Dynamic shared memory above the default 48 KB must be allowed per kernel (kernels of one signature share a
// pointer type, so the record is keyed by the kernel's address).
template <class Kernel>
void allow_shared_memory(Kernel kernel, int bytes) {
    static std::map<const void*, int> allowed;
    int& a = allowed.try_emplace(reinterpret_cast<const void*>(kernel), 48 * 1024).first->second;
    if (bytes <= a) return;
    CASCADE_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
    a = bytes;
}

// The shared-memory strategy's preferred split of L1 and shared memory (kept per kernel; -1: untouched).
template <class Kernel>
void prefer_carveout(Kernel kernel, int percent) {
    static std::map<const void*, int> set;
    int& current = set.try_emplace(reinterpret_cast<const void*>(kernel), -1).first->second;
    if (percent < 0 || percent == current) return;
    CASCADE_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout, percent));
    current = percent;
}

template <class Integrals, bool kTiled>
struct Launcher {
    const CascadeTarget& t;
    ModelRef m;
    Integrals integrals;
    cudaStream_t stream;
    KernelTimer& timer;

    int tile_bytes(int rows) const {
        return kTiled ? tile_words(kTileWidth, rows, t.max_step, t.window) * static_cast<int>(sizeof(std::uint32_t)) : 0;
    }

    template <class Compactor>
    void compacting(const std::vector<int>& ends, const char* name) {
        const LevelsRef lv{t.levels, t.num_levels};
        const auto first = first_group_kernel<Integrals, Compactor, kTiled>;
        const int smem = tile_bytes(kTileRows);
        allow_shared_memory(first, smem);
        timer.begin(std::string(name) + "/0", stream);
        if (t.tiles > 0)
            first<<<t.tiles, kThreads, smem, stream>>>(m, lv, integrals, ends[0], t.stage0_rejected, {t.lists[0], &t.counts[0]});
        CASCADE_CUDA_CHECK(cudaGetLastError());
        timer.end(stream);
        static const int blocks = resident_blocks(survivor_kernel<Integrals, Compactor>);
        for (std::size_t g = 1; g < ends.size(); ++g) {
            timer.begin(std::string(name) + "/" + std::to_string(g), stream);
            survivor_kernel<Integrals, Compactor><<<blocks, kThreads, 0, stream>>>(
                m, lv, integrals, ends[g - 1], ends[g], t.lists[(g - 1) % 2], &t.counts[g - 1],
                {t.lists[g % 2], &t.counts[g]});
            CASCADE_CUDA_CHECK(cudaGetLastError());
            timer.end(stream);
        }
    }

    void shared(const std::vector<int>& ends) {
        GroupEnds groups{static_cast<int>(ends.size()), {}};
        for (std::size_t g = 0; g < ends.size(); ++g) groups.end[g] = ends[g];
        const int last = groups.count - 1;
        const auto kernel = shared_lists_kernel<Integrals, kTiled>;
        const int smem = kSharedListBytes + tile_bytes(kSharedTileRows);
        allow_shared_memory(kernel, smem);
        prefer_carveout(kernel, t.shared_carveout);
        timer.begin("cascade_shared", stream);
        if (t.shared_tiles > 0)
            kernel<<<t.shared_tiles, kThreads, smem, stream>>>(m, {t.levels, t.num_levels}, integrals, groups,
                                                                t.stage0_rejected, t.lists[last % 2], t.counts);
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
        throw std::logic_error("run_cascade: no concrete compaction strategy");
    }
};

// Whether the shared-memory strategy's lists and its largest integral tile fit in one block's shared memory.
bool tiles_fit(const CascadeTarget& t) {
    int device = 0, optin = 0;
    CASCADE_CUDA_CHECK(cudaGetDevice(&device));
    CASCADE_CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    const long long bytes = kSharedListBytes + 4LL * tile_words(kTileWidth, kSharedTileRows, t.max_step, t.window);
    return bytes <= optin;
}

}  // namespace

void upload_model_constants(const LbpCascade& cascade, cudaStream_t stream) {
    if (cascade.stages.size() > static_cast<std::size_t>(kMaxGpuStages) ||
        cascade.weaks.size() > static_cast<std::size_t>(kMaxGpuWeaks))
        throw InputError("GPU detector", "the model has " + std::to_string(cascade.stages.size()) + " stages and " +
                                             std::to_string(cascade.weaks.size()) +
                                             " weak learners; constant memory holds at most " +
                                             std::to_string(kMaxGpuStages) + " of each");
    CASCADE_CUDA_CHECK(cudaMemcpyToSymbolAsync(c_stages, cascade.stages.data(), cascade.stages.size() * sizeof(Stage), 0,
                                               cudaMemcpyHostToDevice, stream));
    CASCADE_CUDA_CHECK(cudaMemcpyToSymbolAsync(c_weaks, cascade.weaks.data(), cascade.weaks.size() * sizeof(LbpWeak), 0,
                                               cudaMemcpyHostToDevice, stream));
}

std::vector<TileWeak> tile_weaks(const LbpCascade& cascade, int pitch) {
    std::vector<TileWeak> out;
    out.reserve(cascade.weaks.size());
    for (const LbpWeak& w : cascade.weaks) out.push_back({lbp_steps(w.feature, pitch), w.table * kLbpCodes});
    return out;
}

CascadeResult run_cascade(const CascadeTarget& t, const std::vector<int>& group_ends, Compaction compaction,
                          cudaStream_t stream, KernelTimer& timer) {
    const std::vector<int> ends = compaction == Compaction::none ? std::vector<int>{t.num_stages} : group_ends;
    if (ends.empty() || ends.size() > static_cast<std::size_t>(kMaxGroups))
        throw std::logic_error("run_cascade: between 1 and " + std::to_string(kMaxGroups) + " groups of stages");
    const ModelRef m{t.window, t.policy, t.num_stages, t.responses, t.tile_weaks, tile_pitch(t.max_step, t.window)};
    if (t.integral_texture)
        Launcher<TextureIntegrals, false>{t, m, {t.integral_texture}, stream, timer}.run(ends, compaction);
    else if (t.integral_tiles && tiles_fit(t))
        Launcher<GlobalIntegrals, true>{t, m, {t.integrals}, stream, timer}.run(ends, compaction);
    else
        Launcher<GlobalIntegrals, false>{t, m, {t.integrals}, stream, timer}.run(ends, compaction);

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
