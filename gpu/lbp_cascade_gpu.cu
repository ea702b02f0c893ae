#include "gpu/lbp_cascade_gpu.hpp"

#include <stdexcept>
#include <type_traits>

#include "common/cascade_eval.hpp"
#include "gpu/cascade_kernels.cuh"
#include "gpu/constant_tables.cuh"
#include "gpu/samplers.cuh"

namespace cascade::gpu {

namespace {

// The model's stages and weak learners: read uniformly by the threads of a warp, so constant memory
// broadcasts them. The response tables are indexed by each thread's LBP code and stay in global memory.
__constant__ Stage c_stages[kMaxLbpGpuStages];
__constant__ LbpWeak c_weaks[kMaxLbpGpuWeaks];

// The LBP window sources (gpu/cascade_kernels.cuh): integral images from `Integrals` (GlobalIntegrals,
// TextureIntegrals, or LevelPixels that blocks integrate into tiles), kTiled: blocks read a tile of them in
// shared memory, kStumps: windows in tiles read the stump tables.
template <class Integrals, bool kTiled, bool kStumps>
struct LbpSource : FamilyWindows<LbpFamily> {
    static constexpr int kFirstWarpGroup = kNoWarpGroup;
    static constexpr int kFirstBlockGroup = kNoWarpGroup;
    static constexpr int kFirstTeamGroup = kNoWarpGroup;
    // Four warps per 32 x 32 tile rather than eight: fewer warps idle at each barrier and twice the blocks
    // per multiprocessor (docs/benchmarks.md). 10 blocks (48 registers) rather than 12 (40): the first group's
    // two windows per thread spilled 110 bytes in 40 registers and ran 0.564 ms at 1080p against 0.561.
    static constexpr int kSharedThreads = 128;
    static constexpr int kSharedMinBlocks = 10;

    const float* responses;
    const TileWeak* tile_weaks;
    const std::uint32_t* stumps;
    int tile_pitch;
    Integrals integrals;

    __device__ __forceinline__ View view() const {
        View v = view_over<View>(c_stages, c_weaks);
        v.responses = responses;
        return v;
    }

    // A block's windows read their integral tile (kTiled: built here by every thread of the block, integrated
    // from level pixels or copied from the level's integral image) or the level's integral image itself.
    __device__ __forceinline__ auto block(const GpuLevel& l, int gx0, int gy0, int rows, std::uint32_t* words) const {
        const TileRegion region = window_region(l, window, gx0, gy0, kTileWidth, rows);
        if constexpr (std::is_same_v<Integrals, LevelPixels>)
            return integrate_tile(integrals.level(l), words, region, tile_pitch);
        else if constexpr (kTiled)
            return load_tile(integrals.level(l), words, region, tile_pitch);
        else
            return integrals.level(l);
    }

    // Survivors read the level's integral image (LbpWindow), never a tile: the response tables.
    __device__ __forceinline__ auto level(const GpuLevel& l) const { return integrals.level(l); }

    // Windows in a tile: the fast form of LbpFamily's window (common/lbp_tables.hpp).
    template <class Sampler>
    __device__ __forceinline__ auto window_at(const View& view, const Sampler& sampler, int x, int y) const {
        if constexpr (std::is_same_v<Sampler, TileIntegral>)
            return TileWindow<kStumps>{responses, tile_weaks, stumps, sampler.origin(x, y)};
        else
            return FamilyWindows<LbpFamily>::window_at(view, sampler, x, y);
    }

    // Two windows of a tile side by side, (x, y) and (x + 1, y), for the shared-memory strategy's first group
    // (gpu/shared_lists.cuh first_group_pairs).
    __device__ __forceinline__ TileWindowPair<kStumps> window_pair_at(const TileIntegral& tile, int x, int y) const {
        return {responses, tile_weaks, stumps, tile.origin(x, y)};
    }
};

template <class Integrals, bool kTiled, bool kStumps = false>
LbpSource<Integrals, kTiled, kStumps> source(const LbpPlanes& p, int num_stages, Integrals integrals) {
    return {{{p.window, p.policy, num_stages}}, p.responses, p.tile_weaks, p.stumps, tile_pitch(p.max_step, p.window),
            integrals};
}

}  // namespace

bool shared_tiles_fit(int max_step, Size window, SumPolicy policy) {
    int device = 0, optin = 0;
    CASCADE_CUDA_CHECK(cudaGetDevice(&device));
    CASCADE_CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    const long long bytes = shared_list_bytes(policy) + 4LL * tile_words(kSharedTileRows, max_step, window);
    return bytes <= optin;
}

void upload_lbp_constants(const LbpCascade& cascade, cudaStream_t stream) {
    upload_cascade_constants(cascade, c_stages, c_weaks, stream);
}

void run_lbp_cascade(const LbpPlanes& p, const CascadeTarget& t, const std::vector<int>& ends, Compaction compaction,
                     cudaStream_t stream, KernelTimer& timer) {
    const bool stumps = p.stumps != nullptr;
    const bool tiled = p.level_pixels || (!p.integral_texture && p.integral_tiles &&
                                          shared_tiles_fit(p.max_step, p.window, p.policy));
    auto tile_bytes = [&](int rows) {
        return tiled ? tile_words(rows, p.max_step, p.window) * static_cast<int>(sizeof(std::uint32_t)) : 0;
    };
    const KernelTuning tuning{tile_bytes(kTileRows), tile_bytes(kSharedTileRows), p.shared_carveout, p.warp_tail};
    const GlobalIntegrals global{p.integrals};
    if (p.level_pixels) {
        if (compaction != Compaction::shared_atomic)
            throw std::logic_error("run_lbp_cascade: level pixels need shared_atomic");
        const LevelPixels pixels{p.level_pixels};
        if (stumps)
            launch_shared_lists(source<LevelPixels, true, true>(p, t.num_stages, pixels), t, tuning, ends, stream,
                                timer);
        else
            launch_shared_lists(source<LevelPixels, true>(p, t.num_stages, pixels), t, tuning, ends, stream, timer);
    } else if (p.integral_texture) {
        const TextureIntegrals texture{p.integral_texture};
        launch_cascade(source<TextureIntegrals, false>(p, t.num_stages, texture), t, tuning, ends, compaction, stream,
                       timer);
    } else if (tiled && stumps) {
        launch_cascade(source<GlobalIntegrals, true, true>(p, t.num_stages, global), t, tuning, ends, compaction,
                       stream, timer);
    } else if (tiled) {
        launch_cascade(source<GlobalIntegrals, true>(p, t.num_stages, global), t, tuning, ends, compaction, stream,
                       timer);
    } else {
        launch_cascade(source<GlobalIntegrals, false>(p, t.num_stages, global), t, tuning, ends, compaction, stream,
                       timer);
    }
}

}  // namespace cascade::gpu
