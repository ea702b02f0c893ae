// Numbers as the tools print them in logs, summaries and plot labels: printf's formats, written once so that
// every tool prints a number alike.
#pragma once

#include <cstdio>
#include <string>

namespace cascade::cli {

// "%g": 0.2, 1.05, 1e-05.
inline std::string real_text(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", value);
    return text;
}

// `digits` decimals: fixed_text(0.12345, 4) == "0.1235".
inline std::string fixed_text(double value, int digits) {
    char text[64];
    std::snprintf(text, sizeof text, "%.*f", digits, value);
    return text;
}

// Two decimals of mantissa: "3.49e-05".
inline std::string scientific_text(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.2e", value);
    return text;
}

// A fraction as a percentage: percent_text(0.268) == "26.8%".
inline std::string percent_text(double fraction, int digits = 1) {
    return fixed_text(100.0 * fraction, digits) + "%";
}

}  // namespace cascade::cli
