// Durations for people: "2:03" under an hour, "1:02:03" above, "?" when unknown (negative, NaN or absurd).
// Shared by the progress bars of the tools.
#pragma once

#include <cstdio>
#include <string>

namespace cascade::cli {

inline std::string duration_text(double seconds) {
    if (!(seconds >= 0) || seconds > 1e7) return "?";
    const long s = static_cast<long>(seconds + 0.5);
    char text[32];
    if (s >= 3600)
        std::snprintf(text, sizeof text, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
    else
        std::snprintf(text, sizeof text, "%ld:%02ld", s / 60, s % 60);
    return text;
}

}  // namespace cascade::cli
