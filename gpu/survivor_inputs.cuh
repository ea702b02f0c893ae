// What the survivor kernels (gpu/cascade_kernels.cuh run_survivors) read their windows from, an Input:
//   size(levels) -> int               how many windows (read on the device)
//   at(levels, i) -> Survivor         window i
//   visits(levels, survivor) -> bool  whether to evaluate it (false: dropped, OpenCV's scan never visits it)
//   record(i, reached)                where the group stopped window i (OpenCV's scan rule reads stage 0's)
#pragma once

#include <cstdint>

#include "gpu/cascade_group.cuh"
#include "gpu/level_lookup.cuh"
#include "gpu/skip_rule.hpp"
#include "gpu/survivor.hpp"

namespace cascade::gpu {

// What a group after the first reads: the survivor list of the group before; with `visited` (the second group,
// OpenCV's scan rule: cascade_target.hpp drops_unvisited_early) the windows at positions OpenCV's scan never
// visits are dropped unevaluated.
struct SurvivorList {
    const Survivor* list;
    const int* count;
    const std::uint8_t* visited = nullptr;
    __device__ __forceinline__ int size(const LevelsRef&) const { return *count; }
    __device__ __forceinline__ Survivor at(const LevelsRef&, int i) const { return list[i]; }
    __device__ __forceinline__ bool visits(const LevelsRef& lv, const Survivor& s) const {
        return !visited || visited[position_of(lv.levels[s.level & ~kAcceptedEarly], s)];
    }
    __device__ __forceinline__ void record(int, int) const {}
};

// What a first group read as a list reads (a source's kFirstTeamGroup 0): every window position, in the frame's
// numbering of positions (GpuLevel::first_position), so that no lane idles past a level's last column as in a
// tile; with OpenCV's scan rule it records which positions stage 0 rejected, as first_group_kernel does.
struct EveryPosition {
    std::uint8_t* stage0_rejected;
    __device__ __forceinline__ int size(const LevelsRef& lv) const {
        const GpuLevel& last = lv.levels[lv.count - 1];
        return last.first_position + last.grid_width * last.grid_height;
    }
    __device__ __forceinline__ Survivor at(const LevelsRef& lv, int i) const {
        const int li = find_level(lv.levels, lv.count, i, &GpuLevel::first_position);
        const GpuLevel& l = lv.levels[li];
        const int p = i - l.first_position, gx = p % l.grid_width, gy = p / l.grid_width;
        return {static_cast<std::uint16_t>(gx * l.step), static_cast<std::uint16_t>(gy * l.step), li, 0.0};
    }
    __device__ __forceinline__ bool visits(const LevelsRef&, const Survivor&) const { return true; }
    __device__ __forceinline__ void record(int i, int reached) const {
        if (stage0_rejected) stage0_rejected[i] = reached == 0;
    }
};

}  // namespace cascade::gpu
