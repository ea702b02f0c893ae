// Values of OpenCV's FileStorage XML (cascade files), read as OpenCV reads them, for the cascade readers
// (opencv_cascade_xml.cpp: LBP, opencv_haar_xml.cpp: Haar). Messages name the line and element.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <tinyxml2.h>

namespace cascade::opencv_xml {

using tinyxml2::XMLElement;

// OpenCV's CascadeClassifierImpl::Data::read lowers every stage threshold by this much, in float.
constexpr float kThresholdEps = 1e-5f;

// The child element `name` of `parent`; InputError(source, ...) naming the parent when it is missing.
const XMLElement& child(const XMLElement& parent, const char* name, const std::string& source);

std::vector<std::string_view> tokens(std::string_view s);

// A 32-bit integer written in decimal.
int parse_int(std::string_view token, const XMLElement& e, const std::string& source);
// As OpenCV's FileStorage reads a number into a float: the decimal text becomes a double (correctly
// rounded), which FileNode's float conversion casts to float.
float parse_float(std::string_view token, const XMLElement& e, const std::string& source);
double parse_double(std::string_view token, const XMLElement& e, const std::string& source);

// The whitespace-separated numbers inside `e`.
std::vector<int> ints_of(const XMLElement& e, const std::string& source);
std::vector<float> floats_of(const XMLElement& e, const std::string& source);
// Exactly one number inside `e`.
int single_int(const XMLElement& e, const std::string& source);
float single_float(const XMLElement& e, const std::string& source);
// The one word inside `e`; empty when there is none or more than one.
std::string word_of(const XMLElement& e);

}  // namespace cascade::opencv_xml
