#include "common/opencv_xml_values.hpp"

#include <cfloat>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>

#include "common/error.hpp"
#include "common/xml_fields.hpp"
#include "common/xml_text.hpp"

namespace cascade::opencv_xml {

using xml::at;
using xml::is_space;
using xml::quoted;

const XMLElement& child(const XMLElement& parent, const char* name, const std::string& source) {
    const XMLElement* c = parent.FirstChildElement(name);
    if (!c) throw InputError(source, at(parent) + " has no <" + name + ">");
    return *c;
}

std::vector<std::string_view> tokens(std::string_view s) {
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && is_space(s[i])) ++i;
        const std::size_t start = i;
        while (i < s.size() && !is_space(s[i])) ++i;
        if (i > start) out.push_back(s.substr(start, i - start));
    }
    return out;
}

int parse_int(std::string_view token, const XMLElement& e, const std::string& source) {
    long long v = 0;
    const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), v);
    if (ec != std::errc() || end != token.data() + token.size())
        throw InputError(source, at(e) + " value " + quoted(token) + " is not an integer");
    if (v < std::numeric_limits<std::int32_t>::min() || v > std::numeric_limits<std::int32_t>::max())
        throw InputError(source, at(e) + " value " + quoted(token) + " does not fit in 32 bits");
    return static_cast<int>(v);
}

double parse_double(std::string_view token, const XMLElement& e, const std::string& source) {
    double v = 0;
    const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), v);
    if (ec != std::errc() || end != token.data() + token.size() || !std::isfinite(v))
        throw InputError(source, at(e) + " value " + quoted(token) + " is not a finite number");
    return v;
}

float parse_float(std::string_view token, const XMLElement& e, const std::string& source) {
    const double v = parse_double(token, e, source);
    if (std::fabs(v) > static_cast<double>(FLT_MAX))
        throw InputError(source, at(e) + " value " + quoted(token) + " is outside the float range");
    return static_cast<float>(v);
}

std::vector<int> ints_of(const XMLElement& e, const std::string& source) {
    std::vector<int> out;
    const std::string text = xml_text_of(e);
    for (std::string_view t : tokens(text)) out.push_back(parse_int(t, e, source));
    return out;
}

std::vector<float> floats_of(const XMLElement& e, const std::string& source) {
    std::vector<float> out;
    const std::string text = xml_text_of(e);
    for (std::string_view t : tokens(text)) out.push_back(parse_float(t, e, source));
    return out;
}

int single_int(const XMLElement& e, const std::string& source) {
    const std::vector<int> v = ints_of(e, source);
    if (v.size() != 1)
        throw InputError(source, at(e) + " holds " + std::to_string(v.size()) + " values, expected one integer");
    return v[0];
}

float single_float(const XMLElement& e, const std::string& source) {
    const std::vector<float> v = floats_of(e, source);
    if (v.size() != 1)
        throw InputError(source, at(e) + " holds " + std::to_string(v.size()) + " values, expected one number");
    return v[0];
}

std::string word_of(const XMLElement& e) {
    const std::string text = xml_text_of(e);  // named: the tokens point into it
    const std::vector<std::string_view> t = tokens(text);
    return t.size() == 1 ? std::string(t[0]) : std::string();
}

}  // namespace cascade::opencv_xml
