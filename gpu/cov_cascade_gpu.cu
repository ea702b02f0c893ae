#include "gpu/cov_cascade_gpu.hpp"

#include <type_traits>

#include "common/cov_eval.hpp"
#include "gpu/cascade_kernels.cuh"

namespace cascade::gpu {

namespace {

// The covariance window source (gpu/cascade_kernels.cuh). A weak learner reads 8 corners of 44 sums and
// diagonalises an 8x8 matrix (some 25,000 double operations, common/cov_jacobi.hpp) in 255 registers (one block
// of 256 threads per SM), so what a group costs is how many weak learners each resident thread runs one after
// another. Every group, the first too (every window position as a list: no tile's lanes idle past a level's
// last column), takes the lanes per window that make that fewest (lanes_for: for pedestrian_cov.xml at
// 1280x960, 2 on the 147,000 positions' first stage of 2 weak learners, 4 on group 1's 26% of them, a little
// over one resident thread each, 8-32 on the 2% and fewer that reach stages of 7-17 weak learners). The
// shared-memory strategy keeps a thread per survivor up to group 6, a warp from there.
template <class Sampler>
struct CovSource : FamilyWindows<CovFamily> {
    static constexpr int kFirstTeamGroup = 0, kTeamLanes = kLanesFromCount;
    static constexpr int kFirstWarpGroup = 6;
    static constexpr int kFirstBlockGroup = kNoWarpGroup;
    static constexpr int kSharedThreads = 256;
    static constexpr int kSharedMinBlocks = 1;

    const Stage* stages;
    const CovWeak* weaks;
    const std::int64_t* integrals;
    const std::uint8_t* lbp_bins;  // read by CovLbpGridView only
    int pitch;
    int tile_pitch;  // nothing is tiled

    __device__ __forceinline__ View view() const { return view_over<View>(stages, weaks); }
    __device__ __forceinline__ Sampler level(const GpuLevel& l) const {
        const CovGridView grid{integrals + static_cast<std::size_t>(l.integral_offset) * kCovPlanes, l.integral_stride};
        if constexpr (std::is_same_v<Sampler, CovGridView>) {
            return grid;
        } else {
            return {grid, {lbp_bins + static_cast<std::size_t>(l.first_row) * pitch, l.width, l.height, pitch}};
        }
    }
    __device__ __forceinline__ Sampler block(const GpuLevel& l, int, int, int, std::uint32_t*) const {
        return level(l);
    }
};

}  // namespace

void run_cov_cascade(const CovGpuPlanes& p, const CascadeTarget& t, const std::vector<int>& ends,
                     Compaction compaction, cudaStream_t stream, KernelTimer& timer) {
    const KernelTuning tuning{0, 0, -1, 0};
    if (p.lbp_bins) {
        const CovSource<CovLbpGridView> source{
            {{p.window, p.policy, t.num_stages}}, p.stages, p.weaks, p.integrals, p.lbp_bins, p.pitch, 1};
        launch_cascade(source, t, tuning, ends, compaction, stream, timer);
    } else {
        const CovSource<CovGridView> source{
            {{p.window, p.policy, t.num_stages}}, p.stages, p.weaks, p.integrals, nullptr, p.pitch, 1};
        launch_cascade(source, t, tuning, ends, compaction, stream, timer);
    }
}

}  // namespace cascade::gpu
