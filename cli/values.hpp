// Strict parsing of option values: the whole text must be the value, or UsageError names the option and
// what was wrong ("--scale-factor: 'abc' is not a number").
#pragma once

#include <string>

#include "common/geometry.hpp"

namespace cascade::cli {

double parse_real(const std::string& option, const std::string& text);  // finite
int parse_int(const std::string& option, const std::string& text);       // fits in int
// "WxH" (either x or X) or "N" for N x N; both sides >= 1.
Size parse_size(const std::string& option, const std::string& text);
std::string size_text(Size size);  // "WxH"

}  // namespace cascade::cli
