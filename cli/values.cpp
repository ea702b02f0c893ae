#include "cli/values.hpp"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

#include "cli/usage_error.hpp"

namespace cascade::cli {

double parse_real(const std::string& option, const std::string& text) {
    const char* begin = text.c_str();
    char* end = nullptr;
    errno = 0;
    const double value = std::strtod(begin, &end);
    if (text.empty() || end != begin + text.size() || std::isspace(static_cast<unsigned char>(text[0])))
        throw UsageError(option, "'" + text + "' is not a number");
    if (errno == ERANGE || !std::isfinite(value)) throw UsageError(option, "'" + text + "' is out of range");
    return value;
}

int parse_int(const std::string& option, const std::string& text) {
    const char* begin = text.c_str();
    char* end = nullptr;
    errno = 0;
    const long value = std::strtol(begin, &end, 10);
    if (text.empty() || end != begin + text.size() || std::isspace(static_cast<unsigned char>(text[0])))
        throw UsageError(option, "'" + text + "' is not an integer");
    if (errno == ERANGE || value < std::numeric_limits<int>::min() || value > std::numeric_limits<int>::max())
        throw UsageError(option, "'" + text + "' is out of range");
    return static_cast<int>(value);
}

Size parse_size(const std::string& option, const std::string& text) {
    const std::size_t x = text.find_first_of("xX");
    const auto not_a_size = [&] {
        return UsageError(option, "'" + text + "' is not a size (WxH, e.g. 24x24, or one integer)");
    };
    Size size;
    if (x == std::string::npos) {
        if (text.find_first_not_of("+-0123456789") != std::string::npos) throw not_a_size();
        size.width = size.height = parse_int(option, text);
    } else {
        const std::string w = text.substr(0, x), h = text.substr(x + 1);
        if (w.empty() || h.empty() || h.find_first_of("xX") != std::string::npos) throw not_a_size();
        size.width = parse_int(option, w);
        size.height = parse_int(option, h);
    }
    if (size.width < 1 || size.height < 1) throw UsageError(option, "size " + text + " must be at least 1x1");
    return size;
}

void check_threads(const std::string& option, int threads) {
    if (threads < 0 || threads > kMaxThreads)
        throw UsageError(option, std::to_string(threads) + " is out of range (0 for all cores, or 1.." +
                                     std::to_string(kMaxThreads) + ")");
}

void check_scale_factor(const std::string& option, double factor) {
    if (factor >= kMinScaleFactor && factor <= kMaxScaleFactor) return;
    char text[96];
    for (int digits = 1; digits <= 17; ++digits) {  // the shortest text that reads back as `factor`
        std::snprintf(text, sizeof text, "%.*g", digits, factor);
        if (std::strtod(text, nullptr) == factor) break;
    }
    char range[64];
    std::snprintf(range, sizeof range, "%g..%g", kMinScaleFactor, kMaxScaleFactor);
    throw UsageError(option, std::string(text) + " is out of range (" + range +
                                 ": a step closer to 1 builds too many pyramid levels)");
}

std::string size_text(Size size) { return std::to_string(size.width) + "x" + std::to_string(size.height); }

}  // namespace cascade::cli
