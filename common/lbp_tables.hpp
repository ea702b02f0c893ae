// The LBP cascade's fast form, written once for host and device: what the GPU kernels over integral tiles read
// instead of the plain LbpWindow (common/cascade_eval.hpp), tested on the CPU against it.
//
// - Stump tables. OpenCV's LBP weak learners are categorical stumps: a 256-bit subset of codes and two leaves.
//   Imported, each is a 256-float response table with two values. Where every table of a model has at most two
//   values, stump_tables gives each as kStumpWords words: the subset's 8 words (bit c set: code c takes the
//   second leaf), then the two leaves' float bits. 40 bytes a weak learner stay in a GPU's L1 where 1 KB
//   tables (139 KB for OpenCV's frontal face cascade) did not. stump_response returns the table's float bit
//   for bit. WaldBoost's real-valued tables have no stump form: the model runs on its tables.
// - Tile records. A TileWeak is a weak learner as a window in a row-major integral array of one row pitch
//   reads it: its corner offsets for that pitch (LbpSteps) and where its responses are, in one 16-byte load.
//   TileWindow is the window functor over them, for run_stages.
// cascade-export writes the stump tables into packed models (common/packed_model.hpp); the tile records
// depend on the pitch of the GPU's tiles (the frame's scan step), so the detector makes them per frame size.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

#include "common/hd.hpp"
#include "common/lbp_eval.hpp"
#include "common/model.hpp"

namespace cascade {

constexpr int kStumpWords = 10;

// Every table of `cascade` in stump form, kStumpWords per weak learner in weak-learner order; empty when some
// table holds more than two values.
std::vector<std::uint32_t> stump_tables(const LbpCascade& cascade);

// True when `stumps` holds kStumpWords words per weak learner of `cascade` and every code's stump_response is
// the value of the weak learner's response table, bit for bit (what a packed model's loader checks).
bool stumps_match_tables(const LbpCascade& cascade, const std::vector<std::uint32_t>& stumps);

struct alignas(16) TileWeak {
    LbpSteps steps;
    // stumps: its stump's first word (kStumpWords * its index); tables: its table's first entry (LbpWeak::table *
    // kLbpCodes). Unsigned, like the code added to it: the GPU forms each address with a 32-bit add and a widening
    // multiply-add, where signed offsets took 64-bit adds and sign extensions (90 -> 87 instructions per weak
    // learner and survivor, 144 -> 139 per pair of windows; docs/benchmarks.md).
    unsigned table;
};

// The weak learners of `cascade` for integral arrays of row pitch `pitch`, reading stump tables (`stumps`) or
// the response tables.
std::vector<TileWeak> tile_weaks(const LbpCascade& cascade, bool stumps, int pitch);

namespace detail {

// Loads through the GPU's read-only data cache (__ldg); plain loads on the host.
CASCADE_HD TileWeak load_tile_weak(const TileWeak* weaks, int i) {
#if defined(__CUDA_ARCH__)
    const int4 w = __ldg(reinterpret_cast<const int4*>(weaks) + i);
    return {{w.x, w.y, w.z}, static_cast<unsigned>(w.w)};
#else
    return weaks[i];
#endif
}

// The word of the subset of the stump at word `first` of `stumps` that holds `code`'s bit.
CASCADE_HD std::uint32_t load_subset(const std::uint32_t* stumps, unsigned first, unsigned code) {
#if defined(__CUDA_ARCH__)
    return __ldg(stumps + (first + code / 32));
#else
    return stumps[first + code / 32];
#endif
}

// The two leaves of the stump at word `first` (words 8 and 9: 8-byte aligned) and one word of its subset.
CASCADE_HD void load_stump(const std::uint32_t* stumps, unsigned first, unsigned code, std::uint32_t& subset,
                           std::uint32_t& below, std::uint32_t& above) {
#if defined(__CUDA_ARCH__)
    const uint2 leaves = __ldg(reinterpret_cast<const uint2*>(stumps + (first + 8)));
    below = leaves.x;
    above = leaves.y;
#else
    below = stumps[first + 8];
    above = stumps[first + 9];
#endif
    subset = load_subset(stumps, first, code);
}

CASCADE_HD float float_of_bits(std::uint32_t bits) {
#if defined(__CUDA_ARCH__)
    return __uint_as_float(bits);
#else
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
#endif
}

// The leaf that `code` takes, given the word of the subset that holds its bit.
CASCADE_HD float leaf(std::uint32_t subset, unsigned code, std::uint32_t below, std::uint32_t above) {
    return float_of_bits(subset >> (code % 32) & 1u ? above : below);
}

}  // namespace detail

// The response for LBP code `code` of the stump at word `first` of `stumps` (kStumpWords words).
CASCADE_HD float stump_response(const std::uint32_t* stumps, unsigned first, unsigned code) {
    std::uint32_t subset, below, above;
    detail::load_stump(stumps, first, code, subset, below, above);
    return detail::leaf(subset, code, below, above);
}

// Response of weak learner i for the window whose top-left integral element is `origin` in an array of the
// TileWeak records' pitch: LbpWindow's, with the corner offsets read from the record (one 16-byte load, and
// per corner one add to the window's address) and, with kStumps, a two-valued table read as its stump.
template <bool kStumps>
struct TileWindow {
    const float* responses;       // LbpCascade::responses
    const TileWeak* weaks;        // tile_weaks(cascade, kStumps, pitch)
    const std::uint32_t* stumps;  // stump_tables(cascade) with kStumps
    const std::uint32_t* origin;

    CASCADE_HD float operator()(int i) const {
        const TileWeak w = detail::load_tile_weak(weaks, i);
        const unsigned code = static_cast<unsigned>(lbp_code(origin, w.steps));
        if constexpr (kStumps)
            return stump_response(stumps, w.table, code);
        else
            return responses[w.table + code];
    }
};

// Responses of one weak learner for two windows.
struct ResponsePair {
    float left, right;
};

// Weak learner i for two windows side by side: TileWindow's at `origin` and at the element to its right (one
// record load, one set of corner addresses, one load of the stump's leaves). Each response equals TileWindow's
// bit for bit, so run_stages_pair over it gives run_stages' decisions and sums for both.
template <bool kStumps>
struct TileWindowPair {
    const float* responses;
    const TileWeak* weaks;
    const std::uint32_t* stumps;
    const std::uint32_t* origin;  // the left window's

    CASCADE_HD ResponsePair operator()(int i) const {
        const TileWeak w = detail::load_tile_weak(weaks, i);
        // The same corner offsets: the right window's loads at a constant offset from the left one's.
        const unsigned left = static_cast<unsigned>(lbp_code(origin, w.steps)),
                       right = static_cast<unsigned>(lbp_code(origin + 1, w.steps));
        if constexpr (kStumps) {
            std::uint32_t subset, below, above;
            detail::load_stump(stumps, w.table, left, subset, below, above);
            const std::uint32_t right_subset = detail::load_subset(stumps, w.table, right);
            return {detail::leaf(subset, left, below, above), detail::leaf(right_subset, right, below, above)};
        } else {
            return {responses[w.table + left], responses[w.table + right]};
        }
    }
};

}  // namespace cascade
