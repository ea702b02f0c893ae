// Packed models (cascade-export's binary): the input as it is, then with its checksum recomputed, so that the
// checks behind the checksum (header, sizes, the model, the stump tables) see mutated content too.
#include <vector>

#include "common/packed_model.hpp"
#include "fuzz/harness.hpp"
#include "fuzz/model_round_trip.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace cascade;
    fuzz::accept_input_errors([&] { fuzz::check_round_trip(unpack_model(data, size, "fuzz.cpk").model); });
    if (size < sizeof(std::uint64_t)) return 0;
    std::vector<std::uint8_t> resealed(data, data + size);
    const std::size_t body = size - sizeof(std::uint64_t);
    const std::uint64_t checksum = packed_checksum(resealed.data(), body);
    for (std::size_t k = 0; k < sizeof checksum; ++k)
        resealed[body + k] = static_cast<std::uint8_t>(checksum >> (8 * k));
    fuzz::accept_input_errors(
        [&] { fuzz::check_round_trip(unpack_model(resealed.data(), resealed.size(), "fuzz.cpk").model); });
    return 0;
}
