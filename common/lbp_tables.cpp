#include "common/lbp_tables.hpp"

#include "common/float_bits.hpp"

namespace cascade {

namespace {

const float* table_of(const LbpCascade& cascade, const LbpWeak& w) {
    return cascade.responses.data() + static_cast<std::size_t>(w.table) * kLbpCodes;
}

}  // namespace

std::vector<std::uint32_t> stump_tables(const LbpCascade& cascade) {
    std::vector<std::uint32_t> out;
    for (const LbpWeak& w : cascade.weaks) {
        const float* table = table_of(cascade, w);
        std::uint32_t leaf[2] = {float_bits(table[0]), float_bits(table[0])}, subset[8] = {};
        for (int c = 0; c < kLbpCodes; ++c) {
            const std::uint32_t bits = float_bits(table[c]);
            if (bits == leaf[0]) continue;
            if (leaf[1] == leaf[0]) leaf[1] = bits;
            if (bits != leaf[1]) return {};  // three values: the model runs on its tables
            subset[c / 32] |= 1u << (c % 32);
        }
        out.insert(out.end(), subset, subset + 8);
        out.insert(out.end(), leaf, leaf + 2);
    }
    return out;
}

bool stumps_match_tables(const LbpCascade& cascade, const std::vector<std::uint32_t>& stumps) {
    if (stumps.size() != cascade.weaks.size() * kStumpWords) return false;
    for (std::size_t i = 0; i < cascade.weaks.size(); ++i) {
        const float* table = table_of(cascade, cascade.weaks[i]);
        for (int c = 0; c < kLbpCodes; ++c)
            if (float_bits(stump_response(stumps.data(), static_cast<unsigned>(i * kStumpWords), c)) != float_bits(table[c]))
                return false;
    }
    return true;
}

std::vector<TileWeak> tile_weaks(const LbpCascade& cascade, bool stumps, int pitch) {
    std::vector<TileWeak> out;
    out.reserve(cascade.weaks.size());
    for (std::size_t i = 0; i < cascade.weaks.size(); ++i) {
        const LbpWeak& w = cascade.weaks[i];
        out.push_back({lbp_steps(w.feature, pitch),
                       static_cast<unsigned>(stumps ? i * kStumpWords : std::size_t{static_cast<unsigned>(w.table)} * kLbpCodes)});
    }
    return out;
}

}  // namespace cascade
