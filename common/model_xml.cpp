// load_model / save_model (common/model_io.hpp): the project's XML format (docs/model-format.md) and, for
// reading, OpenCV's LBP cascades (common/opencv_cascade_xml.hpp).
#include <tinyxml2.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <iterator>
#include <limits>
#include <string>
#include <string_view>
#include <system_error>
#include <variant>
#include <vector>

#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "common/xml_text.hpp"
#include "common/model_io.hpp"
#include "common/opencv_cascade_xml.hpp"
#include "common/packed_model.hpp"

namespace cascade {

namespace {

using tinyxml2::XMLElement;
using tinyxml2::XMLNode;

// ---------------------------------------------------------------------------------------------------------
// Reading

std::string at(const XMLElement& e) { return "line " + std::to_string(e.GetLineNum()) + ": <" + e.Name() + ">"; }

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

std::string_view trimmed(std::string_view s) {
    while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
    while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
    return s;
}

std::string quoted(std::string_view token) {
    constexpr std::size_t kMax = 40;
    return "'" + std::string(token.substr(0, kMax)) + (token.size() > kMax ? "...'" : "'");
}

// Strict decimal parsing of a whole token (no locale, no trailing garbage). A float reads back exactly the
// float that "%.9g" wrote.
template <class T>
bool parse_number(std::string_view token, T& value) {
    if (token.empty()) return false;
    const char* first = token.data();
    if (*first == '+' && token.size() > 1 && token[1] != '-') ++first;  // from_chars takes no '+'; people write one
    const auto [end, ec] = std::from_chars(first, token.data() + token.size(), value);
    return ec == std::errc() && end == token.data() + token.size();
}

// Rejects attributes this element does not define (a misspelt "treshold" would otherwise go unnoticed).
void only_attributes(const XMLElement& e, std::initializer_list<const char*> known, const std::string& source) {
    for (const tinyxml2::XMLAttribute* a = e.FirstAttribute(); a; a = a->Next()) {
        bool ok = false;
        for (const char* k : known) ok = ok || std::strcmp(a->Name(), k) == 0;
        if (!ok) throw InputError(source, at(e) + " has an unknown attribute '" + a->Name() + "'");
    }
}

std::string_view attribute(const XMLElement& e, const char* name, const std::string& source) {
    const char* v = e.Attribute(name);
    if (!v) throw InputError(source, at(e) + " has no attribute '" + name + "'");
    return trimmed(v);
}

long long int_attribute(const XMLElement& e, const char* name, long long lo, long long hi,
                        const std::string& source) {
    const std::string_view text = attribute(e, name, source);
    long long v = 0;
    if (!parse_number(text, v))
        throw InputError(source, at(e) + " attribute " + name + "=" + quoted(text) + " is not an integer");
    if (v < lo || v > hi)
        throw InputError(source, at(e) + " attribute " + name + "=" + quoted(text) + " is out of range");
    return v;
}

int int_attribute(const XMLElement& e, const char* name, const std::string& source) {
    return static_cast<int>(int_attribute(e, name, std::numeric_limits<int>::min(),
                                          std::numeric_limits<int>::max(), source));
}

std::int16_t short_attribute(const XMLElement& e, const char* name, const std::string& source) {
    return static_cast<std::int16_t>(int_attribute(e, name, std::numeric_limits<std::int16_t>::min(),
                                                   std::numeric_limits<std::int16_t>::max(), source));
}

float float_attribute(const XMLElement& e, const char* name, const std::string& source) {
    const std::string_view text = attribute(e, name, source);
    float v = 0;
    if (!parse_number(text, v))
        throw InputError(source, at(e) + " attribute " + name + "=" + quoted(text) +
                                     " is not a number in float range");
    return v;
}

// Appends the whitespace-separated floats inside `e` to `out`.
void read_floats(const XMLElement& e, std::vector<float>& out, const std::string& source) {
    const std::string text = xml_text_of(e);
    std::string_view s = text;
    while (true) {
        while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
        if (s.empty()) break;
        std::size_t n = 0;
        while (n < s.size() && !is_space(s[n])) ++n;
        const std::string_view token = s.substr(0, n);
        float v = 0;
        if (!parse_number(token, v))
            throw InputError(source, at(e) + " value " + std::to_string(out.size()) + " " + quoted(token) +
                                         " is not a number in float range");
        out.push_back(v);
        s.remove_prefix(n);
    }
}

// Format version 2 added the optional acceptance threshold `accept`.
void read_stages(const XMLElement& stages_el, long long version, std::vector<Stage>& stages,
                 const std::string& source) {
    only_attributes(stages_el, {}, source);
    for (const XMLElement* s = stages_el.FirstChildElement(); s; s = s->NextSiblingElement()) {
        if (std::strcmp(s->Name(), "stage") != 0)
            throw InputError(source, at(*s) + " is not allowed in <stages> (only <stage>)");
        if (version >= 2)
            only_attributes(*s, {"first", "count", "threshold", "accept"}, source);
        else
            only_attributes(*s, {"first", "count", "threshold"}, source);
        Stage stage;
        stage.first = int_attribute(*s, "first", source);
        stage.count = int_attribute(*s, "count", source);
        stage.threshold = float_attribute(*s, "threshold", source);
        if (s->Attribute("accept")) stage.accept = float_attribute(*s, "accept", source);
        stages.push_back(stage);
    }
}

void read_lbp_weaks(const XMLElement& list, LbpCascade& c, const std::string& source) {
    for (const XMLElement* w = list.FirstChildElement(); w; w = w->NextSiblingElement()) {
        if (std::strcmp(w->Name(), "lbp") != 0)
            throw InputError(source, at(*w) + " is not allowed in the <weak_learners> of an lbp model");
        only_attributes(*w, {"x", "y", "w", "h", "table"}, source);
        LbpWeak weak;
        weak.feature.x = short_attribute(*w, "x", source);
        weak.feature.y = short_attribute(*w, "y", source);
        weak.feature.width = short_attribute(*w, "w", source);
        weak.feature.height = short_attribute(*w, "h", source);
        weak.table = int_attribute(*w, "table", source);
        c.weaks.push_back(weak);
    }
}

void read_hog_weaks(const XMLElement& list, HogCascade& c, const std::string& source) {
    std::vector<float> weights;
    for (const XMLElement* w = list.FirstChildElement(); w; w = w->NextSiblingElement()) {
        if (std::strcmp(w->Name(), "hog") != 0)
            throw InputError(source, at(*w) + " is not allowed in the <weak_learners> of a hog model");
        only_attributes(*w, {"x", "y", "w", "h", "bias", "vote"}, source);
        HogWeak weak;
        weak.block.x = int_attribute(*w, "x", source);
        weak.block.y = int_attribute(*w, "y", source);
        weak.block.width = int_attribute(*w, "w", source);
        weak.block.height = int_attribute(*w, "h", source);
        weak.bias = float_attribute(*w, "bias", source);
        weak.vote = float_attribute(*w, "vote", source);
        weights.clear();
        read_floats(*w, weights, source);
        if (weights.size() != static_cast<std::size_t>(kHogBlockDims))
            throw InputError(source, at(*w) + " holds " + std::to_string(weights.size()) + " weights, expected " +
                                         std::to_string(kHogBlockDims));
        std::copy(weights.begin(), weights.end(), weak.weights);
        c.weaks.push_back(weak);
    }
}

void read_responses(const XMLElement& e, std::vector<float>& responses, const std::string& source) {
    only_attributes(e, {"count"}, source);
    const long long count = int_attribute(e, "count", 0, std::numeric_limits<int>::max(), source);
    read_floats(e, responses, source);
    if (responses.size() != static_cast<std::size_t>(count))
        throw InputError(source, at(e) + " holds " + std::to_string(responses.size()) + " values but count=\"" +
                                     std::to_string(count) + "\"");
}

Model read_own_format(const XMLElement& root, const std::string& source) {
    only_attributes(root, {"format_version", "kind", "sum_policy"}, source);
    const std::string_view version_text = attribute(root, "format_version", source);
    long long version = 0;
    if (!parse_number(version_text, version))
        throw InputError(source, "format version " + quoted(version_text) + " is not an integer");
    if (version > kModelFormatVersion)
        throw InputError(source, "format version " + std::to_string(version) +
                                     " is newer than this build supports (" + std::to_string(kModelFormatVersion) +
                                     ")");
    if (version < 1) throw InputError(source, "format version " + std::to_string(version) + " is invalid");

    const std::string_view kind = attribute(root, "kind", source);
    if (kind != "lbp" && kind != "hog")
        throw InputError(source, "kind " + quoted(kind) + " is not supported (lbp or hog)");
    const std::string_view policy_text = attribute(root, "sum_policy", source);
    SumPolicy policy = SumPolicy::per_stage;
    if (policy_text == "running")
        policy = SumPolicy::running;
    else if (policy_text != "per_stage")
        throw InputError(source, "sum_policy " + quoted(policy_text) + " is not supported (per_stage or running)");
    const bool lbp = kind == "lbp";

    const XMLElement* window = nullptr;
    const XMLElement* stages = nullptr;
    const XMLElement* weaks = nullptr;
    const XMLElement* responses = nullptr;
    const XMLElement* metadata = nullptr;
    for (const XMLElement* e = root.FirstChildElement(); e; e = e->NextSiblingElement()) {
        const std::string_view name = e->Name();
        const XMLElement** slot = name == "window"          ? &window
                                  : name == "stages"        ? &stages
                                  : name == "weak_learners" ? &weaks
                                  : name == "responses"     ? &responses
                                  : name == "metadata"      ? &metadata
                                                            : nullptr;
        if (!slot || (slot == &responses && !lbp))
            throw InputError(source, at(*e) + " is not allowed in a " + std::string(kind) + " model");
        if (*slot) throw InputError(source, at(*e) + " appears twice");
        *slot = e;
    }
    const auto require = [&](const XMLElement* e, const char* name) -> const XMLElement& {
        if (!e) throw InputError(source, at(root) + " has no <" + name + ">");
        return *e;
    };
    // <metadata> holds free key/value text (trainer, seed, date); this version reads past it.

    Size win;
    const XMLElement& window_el = require(window, "window");
    only_attributes(window_el, {"width", "height"}, source);
    win.width = int_attribute(window_el, "width", source);
    win.height = int_attribute(window_el, "height", source);

    Model model;
    model.source = source;
    if (lbp) {
        LbpCascade c;
        c.window = win;
        c.policy = policy;
        read_stages(require(stages, "stages"), version, c.stages, source);
        const XMLElement& list = require(weaks, "weak_learners");
        only_attributes(list, {}, source);
        read_lbp_weaks(list, c, source);
        read_responses(require(responses, "responses"), c.responses, source);
        validate(c, source);
        model.cascade = std::move(c);
    } else {
        HogCascade c;
        c.window = win;
        c.policy = policy;
        read_stages(require(stages, "stages"), version, c.stages, source);
        const XMLElement& list = require(weaks, "weak_learners");
        only_attributes(list, {}, source);
        read_hog_weaks(list, c, source);
        validate(c, source);
        model.cascade = std::move(c);
    }
    return model;
}

std::string one_line(std::string s) {
    for (char& c : s)
        if (c == '\n' || c == '\r') c = ' ';
    return s;
}

Model parse_model(const std::string& text, const std::string& source) {
    if (trimmed(text).empty()) throw InputError(source, "empty file");
    tinyxml2::XMLDocument doc;
    if (doc.Parse(text.data(), text.size()) != tinyxml2::XML_SUCCESS)
        throw InputError(source, "not an XML file (" + one_line(doc.ErrorStr()) + ")");
    const XMLElement* root = doc.RootElement();
    if (!root) throw InputError(source, "not an XML file (no root element)");

    const std::string_view name = root->Name();
    if (name == "cascade_model") return read_own_format(*root, source);
    if (name == "opencv_storage") {
        Model model;
        model.source = source;
        LbpCascade c = lbp_cascade_from_opencv_xml(*root, source);
        validate(c, source);
        model.cascade = std::move(c);
        return model;
    }
    throw InputError(source, "not a cascade model (root element <" + std::string(name) + ">)");
}

// ---------------------------------------------------------------------------------------------------------
// Writing

// "%.9g" (enough significant digits for any float to read back bit-identical), without the locale's
// decimal separator.
void append_float(std::string& out, float v) {
    char buf[32];
    const auto result = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::general, 9);
    out.append(buf, result.ptr);
}

void append_attr(std::string& out, const char* name, long long v) {
    out += ' ';
    out += name;
    out += "=\"";
    out += std::to_string(v);
    out += '"';
}

void append_attr(std::string& out, const char* name, float v) {
    out += ' ';
    out += name;
    out += "=\"";
    append_float(out, v);
    out += '"';
}

void append_stages(std::string& out, const std::vector<Stage>& stages) {
    out += "  <stages>\n";
    for (const Stage& s : stages) {
        out += "    <stage";
        append_attr(out, "first", static_cast<long long>(s.first));
        append_attr(out, "count", static_cast<long long>(s.count));
        append_attr(out, "threshold", s.threshold);
        if (s.accept != std::numeric_limits<float>::infinity()) append_attr(out, "accept", s.accept);
        out += "/>\n";
    }
    out += "  </stages>\n";
}

void append_header(std::string& out, const char* kind, SumPolicy policy, Size window) {
    out += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    out += "<!-- cascade-toolkit model; the format is described in docs/model-format.md -->\n";
    out += "<cascade_model format_version=\"" + std::to_string(kModelFormatVersion) + "\" kind=\"" + kind +
           "\" sum_policy=\"" + (policy == SumPolicy::running ? "running" : "per_stage") + "\">\n";
    out += "  <window";
    append_attr(out, "width", static_cast<long long>(window.width));
    append_attr(out, "height", static_cast<long long>(window.height));
    out += "/>\n";
}

std::string to_xml(const LbpCascade& c) {
    std::string out;
    out.reserve(256 + c.stages.size() * 64 + c.weaks.size() * 64 + c.responses.size() * 16);
    append_header(out, "lbp", c.policy, c.window);
    append_stages(out, c.stages);
    out += "  <weak_learners>\n";
    for (const LbpWeak& w : c.weaks) {
        out += "    <lbp";
        append_attr(out, "x", static_cast<long long>(w.feature.x));
        append_attr(out, "y", static_cast<long long>(w.feature.y));
        append_attr(out, "w", static_cast<long long>(w.feature.width));
        append_attr(out, "h", static_cast<long long>(w.feature.height));
        append_attr(out, "table", static_cast<long long>(w.table));
        out += "/>\n";
    }
    out += "  </weak_learners>\n";
    out += "  <responses count=\"" + std::to_string(c.responses.size()) + "\">";
    constexpr std::size_t kPerLine = 16;  // a 256-entry table is 16 lines
    for (std::size_t i = 0; i < c.responses.size(); ++i) {
        out += i % kPerLine == 0 ? "\n    " : " ";
        append_float(out, c.responses[i]);
    }
    out += "\n  </responses>\n</cascade_model>\n";
    return out;
}

std::string to_xml(const HogCascade& c) {
    std::string out;
    out.reserve(256 + c.stages.size() * 64 + c.weaks.size() * (kHogBlockDims + 2) * 16);
    append_header(out, "hog", c.policy, c.window);
    append_stages(out, c.stages);
    out += "  <weak_learners>\n";
    for (const HogWeak& w : c.weaks) {
        out += "    <hog";
        append_attr(out, "x", static_cast<long long>(w.block.x));
        append_attr(out, "y", static_cast<long long>(w.block.y));
        append_attr(out, "w", static_cast<long long>(w.block.width));
        append_attr(out, "h", static_cast<long long>(w.block.height));
        append_attr(out, "bias", w.bias);
        append_attr(out, "vote", w.vote);
        out += ">";
        for (int k = 0; k < kHogBlockDims; ++k) {
            if (k > 0) out += ' ';
            append_float(out, w.weights[k]);
        }
        out += "</hog>\n";
    }
    out += "  </weak_learners>\n</cascade_model>\n";
    return out;
}

}  // namespace

std::string read_model_file(const std::string& path) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) throw InputError(path, "cannot open file (it is a directory)");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError(path, std::string("cannot open file (") + std::strerror(errno) + ")");
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.bad()) throw InputError(path, std::string("cannot read file (") + std::strerror(errno) + ")");
    return text;
}

Model load_model(const std::string& path) {
    const std::string text = read_model_file(path);
    const auto* bytes = reinterpret_cast<const std::uint8_t*>(text.data());
    if (is_packed_model(bytes, text.size())) return unpack_model(bytes, text.size(), path).model;
    return parse_model(text, path);
}

Model load_model_from_string(const std::string& xml, const std::string& name) { return parse_model(xml, name); }

void save_model(const Model& model, const std::string& path) {
    // Never write what load_model would refuse.
    const std::string text = std::visit(
        [&](const auto& c) {
            validate(c, path);
            return to_xml(c);
        },
        model.cascade);
    write_file_atomically(path, text);
}

}  // namespace cascade
