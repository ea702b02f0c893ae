// A float's bit pattern, for comparing results that must be the very same float (GPU kernels against the CPU
// oracle, a model read back from XML) rather than nearly equal ones.
#pragma once

#include <cstdint>
#include <cstring>

namespace cascade {

inline std::uint32_t float_bits(float f) {
    std::uint32_t bits;
    std::memcpy(&bits, &f, sizeof bits);
    return bits;
}

}  // namespace cascade
