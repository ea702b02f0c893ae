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

// A list between two groups may hold windows that an acceptance threshold (common/model.hpp, Stage::accept)
// has already accepted: later groups pass them on unevaluated. The mark is a high bit of `level`, so that the
// record stays 16 bytes; the list after the last group never carries it.
constexpr std::int32_t kAcceptedEarly = 1 << 30;

}  // namespace cascade::gpu
