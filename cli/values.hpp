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

// Worker threads: 0 for all cores, or 1..kMaxThreads. More threads than a machine has cores buy nothing and
// each costs a stack and its per-worker buffers, so a slip such as 100000 is refused rather than started.
constexpr int kMaxThreads = 4096;

// A pyramid's scale step: kMinScaleFactor..kMaxScaleFactor. Closer to 1 the levels multiply (1.0000001 made
// millions of them: 14 GB and still running); 1.01 gives some 380 levels from a 24x24 window to a 1080p frame,
// about 50 times the image's pixels in all.
constexpr double kMinScaleFactor = 1.01;
constexpr double kMaxScaleFactor = 4.0;
void check_scale_factor(const std::string& option, double factor);  // UsageError outside the range
void check_threads(const std::string& option, int threads);  // UsageError outside 0..kMaxThreads

}  // namespace cascade::cli
