#include "common/xml_fields.hpp"

#include <cstring>
#include <limits>

#include "common/error.hpp"
#include "common/xml_text.hpp"

namespace cascade::xml {

namespace {

// Appends the whitespace-separated floats of `text` (inside `e`, or its attribute `what`) to `out`.
void parse_floats(const std::string& text, const XMLElement& e, const std::string& what, std::vector<float>& out,
                  const std::string& source) {
    std::string_view s = text;
    while (true) {
        while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
        if (s.empty()) break;
        std::size_t n = 0;
        while (n < s.size() && !is_space(s[n])) ++n;
        const std::string_view token = s.substr(0, n);
        float v = 0;
        if (!parse_number(token, v))
            throw InputError(source, at(e) + what + " value " + std::to_string(out.size()) + " " + quoted(token) +
                                         " is not a number in float range");
        out.push_back(v);
        s.remove_prefix(n);
    }
}

}  // namespace

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

void read_floats(const XMLElement& e, std::vector<float>& out, const std::string& source) {
    parse_floats(xml_text_of(e), e, "", out, source);
}

std::vector<float> float_list_attribute(const XMLElement& e, const char* name, int lo, int hi,
                                        const std::string& source) {
    std::vector<float> out;
    parse_floats(std::string(attribute(e, name, source)), e, std::string(" attribute ") + name, out, source);
    if (static_cast<int>(out.size()) < lo || static_cast<int>(out.size()) > hi)
        throw InputError(source, at(e) + " attribute " + name + " holds " + std::to_string(out.size()) +
                                     " values (" + std::to_string(lo) + " to " + std::to_string(hi) + " allowed)");
    return out;
}

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

void append_attr(std::string& out, const char* name, const float* values, int count) {
    out += ' ';
    out += name;
    out += "=\"";
    for (int i = 0; i < count; ++i) {
        if (i > 0) out += ' ';
        append_float(out, values[i]);
    }
    out += '"';
}

}  // namespace cascade::xml
