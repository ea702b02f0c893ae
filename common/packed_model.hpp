// Packed models: the kernel-ready form of a cascade, what cascade-export writes and the GPU detectors run.
//
// A packed model is the model's own arrays, which the shared evaluation code reads as they are (stages,
// weak-learner records, response tables: the GPU uploads each with one copy, the CPU reads them through a
// view), and the tables the GPU kernels read beside them (an LBP model's stump tables, common/lbp_tables.hpp).
// compile_model derives those once; a packed file carries them, and the detectors take them as loaded. The
// same bytes are written as a binary file and as a C++ header (a byte array) that a program compiles in.
//
// File layout (format version kPackedVersion; little-endian; docs/model-format.md):
//   PackedHeader, then num_stages x Stage, num_weaks x LbpWeak, HogWeak, HaarTree or CovWeak, num_responses x float
//   (LBP:
//   response tables; Haar: tree leaves), num_stump_words x uint32, num_nodes x HaarNode, then a uint64 checksum
//   (64-bit FNV-1a) of every byte before it, the header's included: a file whose any byte changed, window and
//   sum policy too, is refused.
// unpack_model also refuses content that contradicts itself under a valid checksum: counts that do not add
// up to the file's size, a structurally invalid model (validate), or stump tables that disagree with the
// response tables.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/model.hpp"

namespace cascade {

constexpr char kPackedMagic[8] = {'C', 'A', 'S', 'C', 'P', 'A', 'K', '\0'};
// 2: Stage gained its acceptance threshold. 3: LBP stump tables; the checksum covers the whole file.
// 4: HogWeak's real-valued responses (cuts, responses, slope). 5: Haar models (kind 2, num_nodes).
// 6: HogWeak's descriptor (integral histograms or Dalal-Triggs). 7: covariance models (kind 3, CovWeak).
// 8: HogWeak's first_bin (LBP-histogram learners). 9: CovWeak's descriptor and first_bin.
constexpr std::uint32_t kPackedVersion = 9;

struct PackedHeader {
    char magic[8];
    std::uint32_t version;
    std::uint32_t kind;  // 0: LBP, 1: HoG, 2: Haar, 3: covariance
    std::uint32_t policy;
    std::int32_t window_width, window_height;
    std::uint32_t num_stages, num_weaks, num_responses, num_stump_words, num_nodes;
};

struct PackedModel {
    Model model;
    // LBP: stump_tables(cascade) (common/lbp_tables.hpp), empty when a table has more than two values; HoG: empty.
    std::vector<std::uint32_t> stumps;
};

// The kernel tables of `model` (what cascade-export writes).
PackedModel compile_model(Model model);

std::vector<std::uint8_t> pack_model(const PackedModel& packed);

// Throws InputError for an LBP cascade with a final histogram SVM: that stage is not in the packed format and
// the GPU detector does not run it (pack_model and LbpGpuDetector call this).
void check_gpu_supported(const LbpCascade& cascade);
// Checks magic, version, checksum, sizes, then the model (validate) and its tables; throws InputError naming
// `name` and the first problem.
PackedModel unpack_model(const std::uint8_t* bytes, std::size_t size, const std::string& name);
bool is_packed_model(const std::uint8_t* bytes, std::size_t size);
// The checksum a packed file ends with: 64-bit FNV-1a of its `size` bytes before it.
std::uint64_t packed_checksum(const std::uint8_t* bytes, std::size_t size);

// Any model file (common/model_io.hpp load_model's formats) in packed form: a packed binary's tables as
// written, another format's compiled.
PackedModel load_packed_model(const std::string& path);

// The packed bytes as a C++17 header defining `inline constexpr unsigned char <symbol>[]` in namespace
// cascade::embedded; load it with unpack_model(symbol, sizeof symbol, "embedded:<symbol>").
std::string packed_model_header(const std::vector<std::uint8_t>& packed, const std::string& symbol,
                                const std::string& description);

}  // namespace cascade
