#include "common/packed_model.hpp"

#include <cstring>
#include <sstream>
#include <type_traits>

#include "common/error.hpp"

namespace cascade {

namespace {

static_assert(sizeof(PackedHeader) == 48, "the packed header is part of the file format");
static_assert(sizeof(Stage) == 16 && sizeof(LbpWeak) == 12 && sizeof(HogWeak) == 168,
              "packed records are part of the file format: bump kPackedVersion when they change");
static_assert(std::is_trivially_copyable_v<HogWeak> && std::is_trivially_copyable_v<LbpWeak>);

std::uint64_t fnv1a64(const std::uint8_t* data, std::size_t size) {
    std::uint64_t hash = 14695981039346656037ull;
    for (std::size_t i = 0; i < size; ++i) hash = (hash ^ data[i]) * 1099511628211ull;
    return hash;
}

template <class T>
void append(std::vector<std::uint8_t>& out, const std::vector<T>& items) {
    const auto* bytes = reinterpret_cast<const std::uint8_t*>(items.data());
    out.insert(out.end(), bytes, bytes + items.size() * sizeof(T));
}

template <class T>
std::vector<T> take(const std::uint8_t*& cursor, std::uint32_t count) {
    std::vector<T> items(count);
    std::memcpy(items.data(), cursor, count * sizeof(T));
    cursor += count * sizeof(T);
    return items;
}

template <class Cascade>
PackedHeader header_of(const Cascade& c, std::uint32_t kind, std::uint32_t responses) {
    PackedHeader h{};
    std::memcpy(h.magic, kPackedMagic, sizeof h.magic);
    h.version = kPackedVersion;
    h.kind = kind;
    h.policy = static_cast<std::uint32_t>(c.policy);
    h.window_width = c.window.width;
    h.window_height = c.window.height;
    h.num_stages = static_cast<std::uint32_t>(c.stages.size());
    h.num_weaks = static_cast<std::uint32_t>(c.weaks.size());
    h.num_responses = responses;
    return h;
}

}  // namespace

std::vector<std::uint8_t> pack_model(const Model& model) {
    std::vector<std::uint8_t> out(sizeof(PackedHeader));
    PackedHeader header{};
    if (const auto* lbp = std::get_if<LbpCascade>(&model.cascade)) {
        header = header_of(*lbp, 0, static_cast<std::uint32_t>(lbp->responses.size()));
        append(out, lbp->stages);
        append(out, lbp->weaks);
        append(out, lbp->responses);
    } else {
        const auto& hog = std::get<HogCascade>(model.cascade);
        header = header_of(hog, 1, 0);
        append(out, hog.stages);
        append(out, hog.weaks);
    }
    header.checksum = fnv1a64(out.data() + sizeof header, out.size() - sizeof header);
    std::memcpy(out.data(), &header, sizeof header);
    return out;
}

bool is_packed_model(const std::uint8_t* bytes, std::size_t size) {
    return size >= sizeof(kPackedMagic) && std::memcmp(bytes, kPackedMagic, sizeof kPackedMagic) == 0;
}

Model unpack_model(const std::uint8_t* bytes, std::size_t size, const std::string& name) {
    if (size < sizeof(PackedHeader) || !is_packed_model(bytes, size))
        throw InputError(name, "not a packed cascade model (bad magic or shorter than its header)");
    PackedHeader h;
    std::memcpy(&h, bytes, sizeof h);
    if (h.version != kPackedVersion)
        throw InputError(name, "packed format version " + std::to_string(h.version) + ", this build reads " +
                                   std::to_string(kPackedVersion) + " (export the model again)");
    if (h.kind > 1) throw InputError(name, "unknown model kind " + std::to_string(h.kind));
    if (h.policy > 1) throw InputError(name, "unknown sum policy " + std::to_string(h.policy));
    const std::size_t weak_size = h.kind == 0 ? sizeof(LbpWeak) : sizeof(HogWeak);
    const std::size_t expected = sizeof h + std::size_t{h.num_stages} * sizeof(Stage) +
                                 std::size_t{h.num_weaks} * weak_size + std::size_t{h.num_responses} * sizeof(float);
    if (size != expected)
        throw InputError(name, "truncated or padded: the header promises " + std::to_string(expected) +
                                   " bytes, the data has " + std::to_string(size));
    if (fnv1a64(bytes + sizeof h, size - sizeof h) != h.checksum)
        throw InputError(name, "checksum mismatch: the packed model is corrupt");

    const std::uint8_t* cursor = bytes + sizeof h;
    Model model;
    model.source = name;
    const Size window{h.window_width, h.window_height};
    const auto policy = static_cast<SumPolicy>(h.policy);
    if (h.kind == 0) {
        LbpCascade c;
        c.window = window;
        c.policy = policy;
        c.stages = take<Stage>(cursor, h.num_stages);
        c.weaks = take<LbpWeak>(cursor, h.num_weaks);
        c.responses = take<float>(cursor, h.num_responses);
        validate(c, name);
        model.cascade = std::move(c);
    } else {
        HogCascade c;
        c.window = window;
        c.policy = policy;
        c.stages = take<Stage>(cursor, h.num_stages);
        c.weaks = take<HogWeak>(cursor, h.num_weaks);
        validate(c, name);
        model.cascade = std::move(c);
    }
    return model;
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
