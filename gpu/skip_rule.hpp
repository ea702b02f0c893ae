// OpenCV's scan skips the position after a window rejected by stage 0. Along one row of positions that is a
// sequential recurrence: visited[0] = 1, visited[i+1] = !(visited[i] && rejected0[i]). Each step is a function
// of one bit, one of four (constant 0, constant 1, identity, not), and composition of such functions is
// associative, so the recurrence is a scan (cub::BlockScan in gpu/skip_rule.cu) over these 2-bit codes:
// visited[i] = (step[i-1] after ... after step[0])(1), an exclusive scan starting from the identity.
//
// Code of a function f on {0, 1}: bit 0 = f(0), bit 1 = f(1).
#pragma once

#include "common/hd.hpp"
#include "gpu/frame_layout.hpp"
#include "gpu/survivor.hpp"

namespace cascade::gpu {

constexpr unsigned kSkipIdentity = 2;  // f(0) = 0, f(1) = 1

// The step from position i to i + 1: rejected at stage 0 -> visited[i+1] = !visited[i]; else 1.
CASCADE_HD unsigned skip_step(bool rejected_at_stage0) { return rejected_at_stage0 ? 1u : 3u; }

CASCADE_HD bool skip_apply(unsigned f, bool v) { return ((f >> (v ? 1 : 0)) & 1u) != 0; }

// The number of a window of level l in the frame's numbering of positions (GpuLevel::first_position), which
// indexes the stage-0 and visited bytes.
CASCADE_HD int position_of(const GpuLevel& l, const Survivor& s) {
    return l.first_position + (s.y / l.step) * l.grid_width + s.x / l.step;
}

// Apply `first`, then `second`.
struct SkipCompose {
    CASCADE_HD unsigned operator()(unsigned first, unsigned second) const {
        return (skip_apply(second, skip_apply(first, false)) ? 1u : 0u) |
               (skip_apply(second, skip_apply(first, true)) ? 2u : 0u);
    }
};

}  // namespace cascade::gpu
