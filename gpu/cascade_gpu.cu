#include "gpu/cascade_gpu.hpp"

#include <algorithm>
#include <cstring>
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
#include "gpu/warp_responses.cuh"

namespace cascade::gpu {

namespace {

constexpr int kThreads = kTileWidth * kTileRows;  // 256: one window position per thread

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
    const std::uint32_t* stumps;
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
// to the window's address; and a two-valued table read as its stump: the subset word and the two leaves).
template <bool kStumps>
struct TileWindow {
    const float* responses;
    const TileWeak* weaks;
    const std::uint32_t* stumps;
    const std::uint32_t* origin;  // the window's top-left element in the tile

    __device__ __forceinline__ float operator()(int i) const {
        const int4 w = __ldg(reinterpret_cast<const int4*>(weaks) + i);
        const int code = lbp_code(origin, LbpSteps{w.x, w.y, w.z});
        if constexpr (!kStumps) return responses[w.w + code];
        const std::uint32_t* stump = stumps + kStumpWords * w.w;
        const uint2 leaves = __ldg(reinterpret_cast<const uint2*>(stump + 8));
        const std::uint32_t subset = __ldg(stump + code / 32);
        return __uint_as_float(subset >> (code % 32) & 1u ? leaves.y : leaves.x);
    }
};

// The window functor (response of weak learner i) of the window at (x, y) of `sampler`'s level.
template <bool kStumps, class Sampler>
__device__ __forceinline__ auto window_at(const ModelRef& m, const LbpCascadeView& view, const Sampler& sampler, int x,
                                          int y) {
    if constexpr (std::is_same_v<Sampler, TileIntegral>)
        return TileWindow<kStumps>{m.responses, m.tile_weaks, m.stumps, sampler.origin(x, y)};
    else
        return LbpWindow<Sampler>{view, sampler, x, y};
}

// Stages [begin, end) on one window: returns where it stopped (run_stages: the rejecting stage, `end`, or
// num_stages when a stage accepted it early).
template <bool kStumps, class Sampler>
__device__ __forceinline__ int run_group(const ModelRef& m, const LbpCascadeView& view, const Sampler& sampler, int x,
                                         int y, int begin, int end, double& sum) {
    return run_stages(view, window_at<kStumps>(m, view, sampler, x, y), begin, end, sum);
}

// Whether a window that stopped at `reached` goes on after group [.., end): passed or accepted. A window
// accepted before the last stage is marked so that later groups only pass it on (gpu/survivor.hpp).
__device__ __forceinline__ bool goes_on(int reached, int end, Survivor& s) {
    if (reached > end) s.level |= kAcceptedEarly;
    return reached >= end;
}

// The sampler a block's windows read: its integral tile in shared memory (kTiled: built here by every thread
// of the block, integrated from level pixels or copied from the level's integral image) or the level's
// integral image itself.
template <bool kTiled, class Integrals>
__device__ __forceinline__ auto block_sampler(const Integrals& integrals, const ModelRef& m, const GpuLevel& l, int gx0,
                                              int gy0, int rows, std::uint32_t* words) {
    const TileRegion region = window_region(l, m.window, gx0, gy0, kTileWidth, rows);
    if constexpr (std::is_same_v<Integrals, LevelPixels>)
        return integrate_tile(integrals.level(l), words, region, m.tile_pitch);
    else if constexpr (kTiled)
        return load_tile(integrals.level(l), words, region, m.tile_pitch);
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
template <class Integrals, class Compactor, bool kTiled, bool kStumps>
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
        const int reached = run_group<kStumps>(m, view, sampler, s.x, s.y, 0, end, s.sum);
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
                // Survivors read the level's integral image (LbpWindow), never a tile: the response tables.
                const int reached = run_group<false>(m, view, sampler, s.x, s.y, begin, end, s.sum);
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

// The shared-memory strategy: one block of kSharedThreads takes a 32 x 32 tile of positions through every group.
// Between groups its survivors are listed in shared memory as tile positions (kAcceptedIndex set: a window
// accepted early, passed on unevaluated); a model's running sum stays at the window's position. Accepted
// windows go straight to the output list (one global atomic per warp).
//
// The order of each list sets the cost of the next group: the 32 windows of a warp read their corners at the
// same offsets from their origins, so windows whose origins lie in one shared-memory bank (their bank class)
// make every corner load take one more wavefront. Survivors cluster, and a list in position order cost 2.2
// wavefronts per load in the later groups where one would do. So each survivor takes a rank from a shared
// counter of its class, and the list holds rank 0 of every class, then rank 1, ...: a warp's windows then share
// a bank only where its 32 entries straddle two ranks (1.6 wavefronts per load; docs/benchmarks.md).
// Every class has 32 positions in a tile (one in each row), so a rank fits 5 bits of the entry while a group
// runs. Each thread ranks the survivors of its own slots in place, so a group needs no barrier until its
// survivors are ordered into the other list.
// Once a group leaves at most `warp_tail` survivors, the rest of the cascade runs one warp per survivor
// (WarpResponses) instead of one thread: a handful of windows would otherwise take their remaining weak
// learners one after another in a thread or two while the block's other warps wait at its barriers.
// Four warps per tile, not eight: fewer warps idle at each barrier, and more blocks share a multiprocessor
// (docs/benchmarks.md has the measurements).
constexpr int kSharedThreads = 128;
constexpr int kSharedWarps = kSharedThreads / 32;
constexpr int kSharedList = kSharedTileRows * kTileWidth;
constexpr std::uint16_t kPositionBits = kSharedList - 1;
constexpr int kRankShift = 10;  // while a group's survivors are ranked: bits 10..14 of an entry
constexpr std::uint16_t kRankBits = 31 << kRankShift;
constexpr std::uint16_t kAcceptedIndex = 0x8000;
static_assert(kSharedList == 1 << kRankShift && kTileWidth == 32, "a tile index takes the low 10 bits");
static_assert(kSharedList / kSharedThreads <= 32, "a thread's slots fit one bit mask");

// Bytes of the two survivor lists (tile indices), then of the running sums by position for a model that
// carries them between stages (SumPolicy::running; with per_stage sums every stage starts from zero).
__host__ __device__ int shared_list_bytes(SumPolicy policy) {
    return kSharedList *
           static_cast<int>(2 * sizeof(std::uint16_t) + (policy == SumPolicy::running ? sizeof(double) : 0));
}

template <class Integrals, bool kTiled, bool kStumps>
__global__ void __launch_bounds__(kSharedThreads, 12) shared_lists_kernel(ModelRef m, LevelsRef lv, Integrals integrals,
                                                                      GroupEnds groups, int warp_tail,
                                                                      std::uint8_t* stage0_rejected, Survivor* accepted,
                                                                      int* counts) {
    const bool carry_sums = m.policy == SumPolicy::running;
    // Two lists of kSharedList entries: the group's at `list`, the next group's at the other offset.
    auto* lists = reinterpret_cast<std::uint16_t*>(dynamic_smem);
    int list = 0;
    double* sums = reinterpret_cast<double*>(dynamic_smem + 2 * kSharedList * sizeof(std::uint16_t));  // by position
    __shared__ int count[kMaxGroups];
    __shared__ unsigned class_count[32];  // survivors of the group so far, per bank class
    __shared__ unsigned rank_classes[32];  // the classes with a survivor of rank k
    __shared__ int rank_first[32];         // the list slot of rank k's first survivor
    const int li = find_level(lv.levels, lv.count, blockIdx.x, &GpuLevel::first_shared_tile);
    const GpuLevel l = lv.levels[li];
    const int t = blockIdx.x - l.first_shared_tile;
    const int gx0 = (t % l.tiles_x) * kTileWidth, gy0 = (t / l.tiles_x) * kSharedTileRows;
    const int last = groups.count - 1, lane = threadIdx.x % 32;
    if (threadIdx.x < kMaxGroups) count[threadIdx.x] = 0;
    if (threadIdx.x < 32) class_count[threadIdx.x] = 0;
    auto* tile = reinterpret_cast<std::uint32_t*>(dynamic_smem + shared_list_bytes(m.policy));
    const auto sampler = block_sampler<kTiled>(integrals, m, l, gx0, gy0, kSharedTileRows, tile);
    __syncthreads();

    auto x_of = [&](int entry) { return (gx0 + (entry & kPositionBits) % kTileWidth) * l.step; };
    auto y_of = [&](int entry) { return (gy0 + (entry & kPositionBits) / kTileWidth) * l.step; };
    // The bank of the window's origin in the tile, for one step: windows of one class conflict.
    auto bank_class = [&](int entry) {
        const int p = entry & kPositionBits;
        return static_cast<int>(static_cast<unsigned>(p / kTileWidth * m.tile_pitch + p % kTileWidth) % 32);
    };
    // Accepted windows to the output; called by every lane of a warp.
    auto emit = [&](bool on, std::uint16_t entry, double sum) {
        const unsigned mask = __ballot_sync(0xffffffffu, on);
        if (mask == 0) return;
        int base = lane == 0 ? atomicAdd(&counts[last], __popc(mask)) : 0;
        base = __shfl_sync(0xffffffffu, base, 0) + __popc(mask & ((1u << lane) - 1));
        if (on)
            accepted[base] = {static_cast<std::uint16_t>(x_of(entry)), static_cast<std::uint16_t>(y_of(entry)), li,
                              sum};
    };
    // A survivor of group g in the thread's slot i: to the output after the last group; otherwise ranked in its
    // class, in place, and marked in `kept`. Called by every lane of a warp.
    auto keep = [&](bool on, int g, int i, std::uint16_t entry, double sum, unsigned& kept) {
        if (g == last) return emit(on, entry, sum);
        if (!on) return;
        lists[list + i] =
            static_cast<std::uint16_t>(entry | atomicAdd(&class_count[bank_class(entry)], 1u) << kRankShift);
        if (carry_sums) sums[entry & kPositionBits] = sum;
        kept |= 1u << (i / kSharedThreads);
    };
    // Lists group g's ranked survivors (the slots marked in each thread's `kept`) by (rank, class) for the next
    // group, and sets count[g]. Every thread calls it; it synchronises.
    auto order = [&](int g, unsigned kept) {
        __syncthreads();
        if (threadIdx.x < 32) {
            const unsigned have = class_count[lane];
            class_count[lane] = 0;
            int first = 0;
            for (unsigned k = 0; k < 32; ++k) {  // uniform: ends after the highest rank
                const unsigned classes = __ballot_sync(0xffffffffu, have > k);
                if (classes == 0) break;
                if (lane == k) {
                    rank_classes[k] = classes;
                    rank_first[k] = first;
                }
                first += __popc(classes);
            }
            if (lane == 0) count[g] = first;
        }
        __syncthreads();
        for (; kept != 0; kept &= kept - 1) {
            const std::uint16_t entry = lists[list + threadIdx.x + (__ffs(kept) - 1) * kSharedThreads];
            const int k = (entry & kRankBits) >> kRankShift;
            lists[(list ^ kSharedList) + rank_first[k] + __popc(rank_classes[k] & ((1u << bank_class(entry)) - 1))] =
                entry & ~kRankBits;
        }
        __syncthreads();
        list ^= kSharedList;
    };

    const LbpCascadeView view = model_view(m);
    unsigned kept = 0;
#pragma unroll 1
    for (int p = threadIdx.x; p < kSharedList; p += kSharedThreads) {
        const int gx = gx0 + p % kTileWidth, gy = gy0 + p / kTileWidth;
        bool on = gx < l.grid_width && gy < l.grid_height;
        double sum = 0.0;
        int reached = 0;
        if (on) {
            reached = run_group<kStumps>(m, view, sampler, gx * l.step, gy * l.step, 0, groups.end[0], sum);
            if (stage0_rejected) stage0_rejected[l.first_position + gy * l.grid_width + gx] = reached == 0;
            on = reached >= groups.end[0];
        }
        keep(on, 0, p, static_cast<std::uint16_t>(p | (reached > groups.end[0] ? kAcceptedIndex : 0)), sum, kept);
    }
    if (last > 0) order(0, kept);

    int g = 1;
    for (; g <= last && count[g - 1] > warp_tail; ++g) {
        const int n = count[g - 1];
        kept = 0;
        for (int first = 0; first < n; first += kSharedThreads) {  // uniform per block
            const int i = first + threadIdx.x;
            bool on = i < n;
            std::uint16_t entry = on ? lists[list + i] : 0;
            double sum = on && carry_sums ? sums[entry & kPositionBits] : 0.0;
            if (on && !(entry & kAcceptedIndex)) {
                const int reached = run_group<kStumps>(m, view, sampler, x_of(entry), y_of(entry), groups.end[g - 1],
                                                       groups.end[g], sum);
                on = reached >= groups.end[g];
                if (reached > groups.end[g]) entry |= kAcceptedIndex;
            }
            keep(on, g, i, entry, sum, kept);
        }
        if (g < last) order(g, kept);
    }

    if (g <= last) {
        // The tail, one warp per survivor; only counters and the output are written, so the list stays as read.
        const int n = count[g - 1];
        for (int i = threadIdx.x / 32; i < n; i += kSharedWarps) {  // uniform per warp
            std::uint16_t entry = lists[list + i];
            double sum = carry_sums ? sums[entry & kPositionBits] : 0.0;
            const WarpResponses<decltype(window_at<kStumps>(m, view, sampler, 0, 0))> responses{
                window_at<kStumps>(m, view, sampler, x_of(entry), y_of(entry)), weak_count(view), nullptr};
            int h = g;
            for (; h <= last; ++h) {
                if (!(entry & kAcceptedIndex)) {
                    const int reached = run_stages(view, responses, groups.end[h - 1], groups.end[h], sum);
                    if (reached < groups.end[h]) break;
                    if (reached > groups.end[h]) entry |= kAcceptedIndex;
                }
                if (h < last && lane == 0) atomicAdd(&count[h], 1);
            }
            emit(h > last && lane == 0, entry, sum);
        }
        __syncthreads();
    }
    if (threadIdx.x < last && count[threadIdx.x] > 0) atomicAdd(&counts[threadIdx.x], count[threadIdx.x]);
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
    const auto [it, added] = allowed.try_emplace(reinterpret_cast<const void*>(kernel), 0);
    int& a = it->second;
    if (added) {  // without opting in, static and dynamic shared memory share 48 KB
        cudaFuncAttributes attributes{};
        CASCADE_CUDA_CHECK(cudaFuncGetAttributes(&attributes, kernel));
        a = 48 * 1024 - static_cast<int>(attributes.sharedSizeBytes);
    }
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

template <class Integrals, bool kTiled, bool kStumps = false>
struct Launcher {
    const CascadeTarget& t;
    ModelRef m;
    Integrals integrals;
    cudaStream_t stream;
    KernelTimer& timer;

    int tile_bytes(int rows) const {
        return kTiled ? tile_words(rows, t.max_step, t.window) * static_cast<int>(sizeof(std::uint32_t)) : 0;
    }

    template <class Compactor>
    void compacting(const std::vector<int>& ends, const char* name) {
        const LevelsRef lv{t.levels, t.num_levels};
        const auto first = first_group_kernel<Integrals, Compactor, kTiled, kStumps>;
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
        const auto kernel = shared_lists_kernel<Integrals, kTiled, kStumps>;
        const int smem = shared_list_bytes(t.policy) + tile_bytes(kSharedTileRows);
        allow_shared_memory(kernel, smem);
        prefer_carveout(kernel, t.shared_carveout);
        timer.begin("cascade_shared", stream);
        if (t.shared_tiles > 0)
            kernel<<<t.shared_tiles, kSharedThreads, smem, stream>>>(m, {t.levels, t.num_levels}, integrals, groups,
                                                                t.warp_tail, t.stage0_rejected, t.lists[last % 2],
                                                                t.counts);
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

}  // namespace

bool shared_tiles_fit(int max_step, Size window, SumPolicy policy) {
    int device = 0, optin = 0;
    CASCADE_CUDA_CHECK(cudaGetDevice(&device));
    CASCADE_CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    const long long bytes = shared_list_bytes(policy) + 4LL * tile_words(kSharedTileRows, max_step, window);
    return bytes <= optin;
}

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

std::vector<std::uint32_t> stump_tables(const LbpCascade& cascade) {
    std::vector<std::uint32_t> out;
    for (const LbpWeak& w : cascade.weaks) {
        const float* table = cascade.responses.data() + static_cast<std::size_t>(w.table) * kLbpCodes;
        std::uint32_t leaf[2] = {0, 0}, subset[8] = {};
        std::memcpy(&leaf[0], &table[0], sizeof(float));
        leaf[1] = leaf[0];
        for (int c = 0; c < kLbpCodes; ++c) {
            std::uint32_t bits;  // compared as bits: the kernels must return the very same float
            std::memcpy(&bits, &table[c], sizeof(float));
            if (bits == leaf[0]) continue;
            if (leaf[1] == leaf[0]) leaf[1] = bits;
            if (bits != leaf[1]) return {};  // three values: the model runs on its tables
            subset[c / 32] |= 1u << (c % 32);
        }
        out.insert(out.end(), subset, subset + 8);
        out.insert(out.end(), leaf, leaf + 2);
    }
    return out;
}

std::vector<TileWeak> tile_weaks(const LbpCascade& cascade, bool stumps, int pitch) {
    std::vector<TileWeak> out;
    out.reserve(cascade.weaks.size());
    for (std::size_t i = 0; i < cascade.weaks.size(); ++i) {
        const LbpWeak& w = cascade.weaks[i];
        out.push_back({lbp_steps(w.feature, pitch), stumps ? static_cast<int>(i) : w.table * kLbpCodes});
    }
    return out;
}

CascadeResult run_cascade(const CascadeTarget& t, const std::vector<int>& group_ends, Compaction compaction,
                          cudaStream_t stream, KernelTimer& timer) {
    const std::vector<int> ends = compaction == Compaction::none ? std::vector<int>{t.num_stages} : group_ends;
    if (ends.empty() || ends.size() > static_cast<std::size_t>(kMaxGroups))
        throw std::logic_error("run_cascade: between 1 and " + std::to_string(kMaxGroups) + " groups of stages");
    const ModelRef m{t.window,  t.policy, t.num_stages, t.responses,
                     t.tile_weaks, t.stumps, tile_pitch(t.max_step, t.window)};
    const bool stumps = t.stumps != nullptr;
    if (t.level_pixels) {
        if (compaction != Compaction::shared_atomic)
            throw std::logic_error("run_cascade: level pixels need shared_atomic");
        if (stumps)
            Launcher<LevelPixels, true, true>{t, m, {t.level_pixels}, stream, timer}.shared(ends);
        else
            Launcher<LevelPixels, true>{t, m, {t.level_pixels}, stream, timer}.shared(ends);
    } else if (t.integral_texture) {
        Launcher<TextureIntegrals, false>{t, m, {t.integral_texture}, stream, timer}.run(ends, compaction);
    } else if (t.integral_tiles && shared_tiles_fit(t.max_step, t.window, t.policy)) {
        if (stumps)
            Launcher<GlobalIntegrals, true, true>{t, m, {t.integrals}, stream, timer}.run(ends, compaction);
        else
            Launcher<GlobalIntegrals, true>{t, m, {t.integrals}, stream, timer}.run(ends, compaction);
    } else {
        Launcher<GlobalIntegrals, false>{t, m, {t.integrals}, stream, timer}.run(ends, compaction);
    }

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
