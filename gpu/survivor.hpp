// A window that passed a group of stages, as the compaction strategies store it between kernels: its
// position on a pyramid level and the running sum carried into the next group (double, like the CPU's).
#pragma once

#include <cstdint>

namespace cascade::gpu {

struct Survivor {
    std::uint16_t x, y;  // window origin in level pixels
    std::int32_t level;
    double sum;
};
static_assert(sizeof(Survivor) == 16, "one 16-byte record per survivor");

}  // namespace cascade::gpu
