#include "gpu/detector_types.hpp"

#include "common/error.hpp"

namespace cascade::gpu {

const std::vector<Compaction>& concrete_compactions() {
    static const std::vector<Compaction> all = {Compaction::none, Compaction::global_atomic, Compaction::shared_atomic,
                                                Compaction::hybrid, Compaction::prefix_sum};
    return all;
}

std::string to_string(Compaction c) {
    switch (c) {
        case Compaction::none: return "none";
        case Compaction::global_atomic: return "global_atomic";
        case Compaction::shared_atomic: return "shared_atomic";
        case Compaction::hybrid: return "hybrid";
        case Compaction::prefix_sum: return "prefix_sum";
        case Compaction::automatic: return "auto";
    }
    return "?";
}

std::string to_string(PyramidMode m) { return m == PyramidMode::exact ? "exact" : "texture"; }

Compaction parse_compaction(const std::string& text, const std::string& option) {
    if (text == "auto" || text == "automatic") return Compaction::automatic;
    for (Compaction c : concrete_compactions())
        if (text == to_string(c)) return c;
    throw InputError(option, "unknown compaction strategy '" + text +
                                 "' (none, global_atomic, shared_atomic, hybrid, prefix_sum, auto)");
}

}  // namespace cascade::gpu
