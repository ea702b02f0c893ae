// Packed models: the GPU-ready form of a cascade, produced by cascade-export.
//
// A packed model is a header followed by the arrays that the shared evaluation code reads through a view
// (stages, weak-learner records, response tables), exactly as they sit in memory, so the GPU uploads them
// with one copy each and the CPU uses them without conversion. The same bytes are written as a binary file
// and as a C++ header (a byte array) that a program compiles in.
//
// Layout (little-endian): PackedHeader, then num_stages x Stage, num_weaks x LbpWeak or HogWeak,
// num_responses x float. The checksum (64-bit FNV-1a) covers everything after the header.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/model.hpp"

namespace cascade {

constexpr char kPackedMagic[8] = {'C', 'A', 'S', 'C', 'P', 'A', 'K', '\0'};
constexpr std::uint32_t kPackedVersion = 2;  // 2: Stage gained its acceptance threshold

struct PackedHeader {
    char magic[8];
    std::uint32_t version;
    std::uint32_t kind;  // 0: LBP, 1: HoG
    std::uint32_t policy;
    std::int32_t window_width, window_height;
    std::uint32_t num_stages, num_weaks, num_responses;
    std::uint64_t checksum;
};

std::vector<std::uint8_t> pack_model(const Model& model);
// Checks magic, version, sizes and checksum, then validates the model; throws InputError naming `name`.
Model unpack_model(const std::uint8_t* bytes, std::size_t size, const std::string& name);
bool is_packed_model(const std::uint8_t* bytes, std::size_t size);

// The packed bytes as a C++17 header defining `inline constexpr unsigned char <symbol>[]` in namespace
// cascade::embedded; load it with unpack_model(symbol, sizeof symbol, "embedded:<symbol>").
std::string packed_model_header(const std::vector<std::uint8_t>& packed, const std::string& symbol,
                                const std::string& description);

}  // namespace cascade
