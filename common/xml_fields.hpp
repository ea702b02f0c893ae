// Typed reading and writing of the XML fields of the project's model format (common/model_xml.cpp): strict
// numbers (no locale, no trailing garbage, floats that read back bit-identical to what append_float wrote),
// attributes that must exist, lists of floats, and messages that name the line and element.
#pragma once

#include <charconv>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include <tinyxml2.h>

namespace cascade::xml {

using tinyxml2::XMLElement;

// "line N: <name>", for messages.
std::string at(const XMLElement& e);
bool is_space(char c);
std::string_view trimmed(std::string_view s);
// 'token', cut after 40 characters.
std::string quoted(std::string_view token);

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

// Throws InputError (naming `source`) for an attribute of `e` not among `known` (a misspelt "treshold" would
// otherwise go unnoticed), a missing attribute, or one that is not a number of the type in range.
void only_attributes(const XMLElement& e, std::initializer_list<const char*> known, const std::string& source);
std::string_view attribute(const XMLElement& e, const char* name, const std::string& source);
long long int_attribute(const XMLElement& e, const char* name, long long lo, long long hi, const std::string& source);
int int_attribute(const XMLElement& e, const char* name, const std::string& source);
std::int16_t short_attribute(const XMLElement& e, const char* name, const std::string& source);
float float_attribute(const XMLElement& e, const char* name, const std::string& source);
// The whitespace-separated floats of attribute `name`: between `lo` and `hi` of them.
std::vector<float> float_list_attribute(const XMLElement& e, const char* name, int lo, int hi,
                                        const std::string& source);
// Appends the whitespace-separated floats inside `e` to `out`.
void read_floats(const XMLElement& e, std::vector<float>& out, const std::string& source);

// Writing: " name=\"value\"", floats as "%.9g" without the locale's decimal separator.
void append_float(std::string& out, float v);
void append_attr(std::string& out, const char* name, long long v);
void append_attr(std::string& out, const char* name, float v);
void append_attr(std::string& out, const char* name, const float* values, int count);  // space-separated

}  // namespace cascade::xml
