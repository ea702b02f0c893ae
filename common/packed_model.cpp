#include "common/packed_model.hpp"

#include <cstring>
#include <sstream>
#include <type_traits>

#include "common/error.hpp"
#include "common/lbp_tables.hpp"
#include "common/model_io.hpp"

namespace cascade {

namespace {

static_assert(sizeof(PackedHeader) == 48, "the packed header is part of the file format");
static_assert(sizeof(Stage) == 16 && sizeof(LbpWeak) == 12 && sizeof(HogWeak) == 240 && sizeof(HaarTree) == 12 &&
                  sizeof(HaarNode) == 52,
              "packed records are part of the file format (no padding bytes): bump kPackedVersion when they change");
static_assert(sizeof(CovWeak) == 504, "packed records are part of the file format: bump kPackedVersion");
static_assert(std::is_trivially_copyable_v<HogWeak> && std::is_trivially_copyable_v<LbpWeak> &&
              std::is_trivially_copyable_v<HaarNode> && std::is_trivially_copyable_v<CovWeak>);

using Checksum = std::uint64_t;

template <class T>
void append(std::vector<std::uint8_t>& out, const std::vector<T>& items) {
    const auto* bytes = reinterpret_cast<const std::uint8_t*>(items.data());
    out.insert(out.end(), bytes, bytes + items.size() * sizeof(T));
}

template <class T>
std::vector<T> take(const std::uint8_t*& cursor, std::uint32_t count) {
    std::vector<T> items(count);
    if (count != 0) std::memcpy(items.data(), cursor, count * sizeof(T));  // an empty vector's data() may be null
    cursor += count * sizeof(T);
    return items;
}

template <class Cascade>
PackedHeader header_of(const Cascade& c, std::uint32_t kind) {
    PackedHeader h{};
    std::memcpy(h.magic, kPackedMagic, sizeof h.magic);
    h.version = kPackedVersion;
    h.kind = kind;
    h.policy = static_cast<std::uint32_t>(c.policy);
    h.window_width = c.window.width;
    h.window_height = c.window.height;
    h.num_stages = static_cast<std::uint32_t>(c.stages.size());
    h.num_weaks = static_cast<std::uint32_t>(c.weaks.size());
    return h;
}

// The header of a file that passed the magic, version and checksum checks, checked against the file's size.
PackedHeader checked_header(const std::uint8_t* bytes, std::size_t size, const std::string& name) {
    PackedHeader h;
    std::memcpy(&h, bytes, sizeof h);
    if (h.kind > 3) throw InputError(name, "unknown model kind " + std::to_string(h.kind));
    if (h.policy > 1) throw InputError(name, "unknown sum policy " + std::to_string(h.policy));
    if ((h.kind == 1 || h.kind == 3) && (h.num_responses != 0 || h.num_stump_words != 0))
        throw InputError(name, std::string(h.kind == 1 ? "a HoG" : "a covariance") +
                                   " model with LBP response or stump tables");
    if ((h.kind == 2) != (h.num_nodes != 0) || (h.kind == 2 && h.num_stump_words != 0))
        throw InputError(name, "tree nodes or stump tables that do not belong to a model of kind " +
                                   std::to_string(h.kind));
    if (h.num_stump_words != 0 && std::size_t{h.num_stump_words} != std::size_t{h.num_weaks} * kStumpWords)
        throw InputError(name, std::to_string(h.num_stump_words) + " stump table words for " +
                                   std::to_string(h.num_weaks) + " weak learners (" + std::to_string(kStumpWords) +
                                   " each, or none)");
    const std::size_t weak_size = h.kind == 0   ? sizeof(LbpWeak)
                                  : h.kind == 1 ? sizeof(HogWeak)
                                  : h.kind == 2 ? sizeof(HaarTree)
                                                : sizeof(CovWeak);
    const std::size_t expected = sizeof h + std::size_t{h.num_stages} * sizeof(Stage) +
                                 std::size_t{h.num_weaks} * weak_size + std::size_t{h.num_responses} * sizeof(float) +
                                 std::size_t{h.num_stump_words} * sizeof(std::uint32_t) +
                                 std::size_t{h.num_nodes} * sizeof(HaarNode) + sizeof(Checksum);
    if (size != expected)
        throw InputError(name, "truncated or padded: the header promises " + std::to_string(expected) +
                                   " bytes, the data has " + std::to_string(size));
    return h;
}

template <class Cascade>
Cascade cascade_of(const PackedHeader& h, const std::uint8_t*& cursor) {
    Cascade c;
    c.window = {h.window_width, h.window_height};
    c.policy = static_cast<SumPolicy>(h.policy);
    c.stages = take<Stage>(cursor, h.num_stages);
    c.weaks = take<typename decltype(c.weaks)::value_type>(cursor, h.num_weaks);
    return c;
}

}  // namespace

PackedModel compile_model(Model model) {
    PackedModel packed;
    if (const auto* lbp = std::get_if<LbpCascade>(&model.cascade)) packed.stumps = stump_tables(*lbp);
    packed.model = std::move(model);
    return packed;
}

void check_gpu_supported(const LbpCascade& cascade) {
    if (cascade.final_svm) throw InputError("MODEL", "the LBP histogram SVM stage runs on the CPU only (--backend cpu)");
}

std::vector<std::uint8_t> pack_model(const PackedModel& packed) {
    std::vector<std::uint8_t> out(sizeof(PackedHeader));
    PackedHeader header{};
    if (const auto* lbp = std::get_if<LbpCascade>(&packed.model.cascade)) {
        check_gpu_supported(*lbp);
        header = header_of(*lbp, 0);
        header.num_responses = static_cast<std::uint32_t>(lbp->responses.size());
        header.num_stump_words = static_cast<std::uint32_t>(packed.stumps.size());
        append(out, lbp->stages);
        append(out, lbp->weaks);
        append(out, lbp->responses);
        append(out, packed.stumps);
    } else if (const auto* haar = std::get_if<HaarCascade>(&packed.model.cascade)) {
        header = header_of(*haar, 2);
        header.num_responses = static_cast<std::uint32_t>(haar->leaves.size());
        header.num_nodes = static_cast<std::uint32_t>(haar->nodes.size());
        append(out, haar->stages);
        append(out, haar->weaks);
        append(out, haar->leaves);
        append(out, haar->nodes);
    } else if (const auto* cov = std::get_if<CovCascade>(&packed.model.cascade)) {
        header = header_of(*cov, 3);
        append(out, cov->stages);
        append(out, cov->weaks);
    } else {
        const auto& hog = std::get<HogCascade>(packed.model.cascade);
        header = header_of(hog, 1);
        append(out, hog.stages);
        append(out, hog.weaks);
    }
    std::memcpy(out.data(), &header, sizeof header);
    const Checksum checksum = packed_checksum(out.data(), out.size());
    append(out, std::vector<Checksum>{checksum});
    return out;
}

std::uint64_t packed_checksum(const std::uint8_t* bytes, std::size_t size) {
    std::uint64_t hash = 14695981039346656037ull;
    for (std::size_t i = 0; i < size; ++i) hash = (hash ^ bytes[i]) * 1099511628211ull;
    return hash;
}

bool is_packed_model(const std::uint8_t* bytes, std::size_t size) {
    return size >= sizeof(kPackedMagic) && std::memcmp(bytes, kPackedMagic, sizeof kPackedMagic) == 0;
}

PackedModel unpack_model(const std::uint8_t* bytes, std::size_t size, const std::string& name) {
    if (size < sizeof(PackedHeader) + sizeof(Checksum) || !is_packed_model(bytes, size))
        throw InputError(name, "not a packed cascade model (bad magic or shorter than its header)");
    std::uint32_t version;
    std::memcpy(&version, bytes + offsetof(PackedHeader, version), sizeof version);
    if (version != kPackedVersion)
        throw InputError(name, "packed format version " + std::to_string(version) + ", this build reads " +
                                   std::to_string(kPackedVersion) + " (export the model again)");
    Checksum stored;
    std::memcpy(&stored, bytes + size - sizeof stored, sizeof stored);
    if (packed_checksum(bytes, size - sizeof stored) != stored)
        throw InputError(name, "checksum mismatch: the packed model is corrupt");

    const PackedHeader h = checked_header(bytes, size, name);
    const std::uint8_t* cursor = bytes + sizeof h;
    PackedModel packed;
    packed.model.source = name;
    if (h.kind == 0) {
        auto c = cascade_of<LbpCascade>(h, cursor);
        c.responses = take<float>(cursor, h.num_responses);
        validate(c, name);
        packed.stumps = take<std::uint32_t>(cursor, h.num_stump_words);
        if (!packed.stumps.empty() && !stumps_match_tables(c, packed.stumps))
            throw InputError(name, "the stump tables disagree with the response tables");
        packed.model.cascade = std::move(c);
    } else if (h.kind == 2) {
        auto c = cascade_of<HaarCascade>(h, cursor);
        c.leaves = take<float>(cursor, h.num_responses);
        c.nodes = take<HaarNode>(cursor, h.num_nodes);
        validate(c, name);
        packed.model.cascade = std::move(c);
    } else if (h.kind == 3) {
        auto c = cascade_of<CovCascade>(h, cursor);
        validate(c, name);
        packed.model.cascade = std::move(c);
    } else {
        auto c = cascade_of<HogCascade>(h, cursor);
        validate(c, name);
        packed.model.cascade = std::move(c);
    }
    return packed;
}

PackedModel load_packed_model(const std::string& path) {
    const std::string text = read_model_file(path);
    const auto* bytes = reinterpret_cast<const std::uint8_t*>(text.data());
    if (is_packed_model(bytes, text.size())) return unpack_model(bytes, text.size(), path);
    return compile_model(load_model_from_string(text, path));
}

std::string packed_model_header(const std::vector<std::uint8_t>& packed, const std::string& symbol,
                                const std::string& description) {
    std::ostringstream s;
    s << "// Generated by cascade-export: " << description << "\n"
      << "// A packed cascade model (common/packed_model.hpp); load it with\n"
      << "// cascade::unpack_model(cascade::embedded::" << symbol << ", sizeof cascade::embedded::" << symbol
      << ", \"embedded:" << symbol << "\").\n"
      << "#pragma once\n\nnamespace cascade::embedded {\n\n"
      << "inline constexpr unsigned char " << symbol << "[" << packed.size() << "] = {";
    for (std::size_t i = 0; i < packed.size(); ++i) {
        if (i % 20 == 0) s << "\n    ";
        s << static_cast<unsigned>(packed[i]) << (i + 1 < packed.size() ? "," : "");
    }
    s << "\n};\n\n}  // namespace cascade::embedded\n";
    return s.str();
}

}  // namespace cascade
