#include "fuzz/model_round_trip.hpp"

#include <cstdio>
#include <cstdlib>

#include "common/model_io.hpp"
#include "common/packed_model.hpp"
#include "fuzz/harness.hpp"

namespace cascade::fuzz {

namespace {

[[noreturn]] void finding(const char* what, const std::string& detail) {
    std::fprintf(stderr, "fuzz finding: %s: %s\n", what, detail.c_str());
    std::abort();
}

}  // namespace

void check_round_trip(const Model& model) {
    const std::vector<std::uint8_t> packed = pack_model(compile_model(model));
    const std::string path = scratch_dir() + "/round_trip.xml";
    try {
        const PackedModel unpacked = unpack_model(packed.data(), packed.size(), "packed");
        if (pack_model(unpacked) != packed) finding("pack and unpack change the model", model.source);
        save_model(model, path);
        if (pack_model(compile_model(load_model(path))) != packed)
            finding("save and load change the model", model.source);
    } catch (const InputError& e) {
        finding("a loaded model does not round-trip", e.what());
    }
}

}  // namespace cascade::fuzz
