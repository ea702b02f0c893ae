#include "detect/progress.hpp"

#include <algorithm>
#include <cstdio>
#include <unistd.h>

#include "cli/duration_text.hpp"

namespace cascade::detect {

using cli::duration_text;

namespace {

constexpr auto kRedrawInterval = std::chrono::milliseconds(100);
constexpr int kBarWidth = 24;

}  // namespace

bool progress_wanted(bool quiet, bool forced) { return !quiet && (forced || ::isatty(2)); }

Progress::Progress(bool enabled, long total)
    : enabled_(enabled), tty_(::isatty(2) != 0), total_(total), start_(std::chrono::steady_clock::now()),
      last_draw_(start_ - kRedrawInterval) {}

Progress::~Progress() {
    if (drawn_width_ > 0) std::fputs("\n", stderr);
}

void Progress::advance(long done) {
    done_ = done;
    if (!enabled_) return;
    const auto now = std::chrono::steady_clock::now();
    if (now - last_draw_ < kRedrawInterval && done != total_) return;
    last_draw_ = now;
    draw(done);
}

void Progress::draw(long done) {
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    const double fps = elapsed > 0 ? static_cast<double>(done) / elapsed : 0.0;
    char text[160];
    if (total_ > 0) {
        const double fraction = std::min(1.0, static_cast<double>(done) / static_cast<double>(total_));
        const int filled = static_cast<int>(fraction * kBarWidth);
        const std::string bar = std::string(static_cast<std::size_t>(filled), '#') +
                                std::string(static_cast<std::size_t>(kBarWidth - filled), '.');
        const std::string eta = fps > 0 ? duration_text(static_cast<double>(total_ - done) / fps) : "?";
        std::snprintf(text, sizeof text, "[%s] %ld/%ld %3d%% %.1f fps ETA %s", bar.c_str(), done, total_,
                      static_cast<int>(fraction * 100.0), fps, eta.c_str());
    } else {
        std::snprintf(text, sizeof text, "%ld frames %.1f fps %s", done, fps, duration_text(elapsed).c_str());
    }
    std::string line = text;
    const std::size_t width = line.size();
    if (tty_)
        line += "\033[K";
    else if (width < drawn_width_)
        line += std::string(drawn_width_ - width, ' ');
    std::fprintf(stderr, "\r%s", line.c_str());
    std::fflush(stderr);
    drawn_width_ = width;
    drawn_done_ = done;
}

void Progress::erase() {
    if (drawn_width_ == 0) return;
    if (tty_)
        std::fputs("\r\033[K", stderr);
    else
        std::fputs("\n", stderr);
    drawn_width_ = 0;
}

void Progress::note(const std::string& line) {
    erase();
    std::fprintf(stderr, "%s\n", line.c_str());
    if (enabled_ && done_ > 0) draw(done_);
}

void Progress::finish() {
    if (enabled_ && (drawn_width_ == 0 || drawn_done_ != done_)) draw(done_);
    if (drawn_width_ > 0) {
        std::fputs("\n", stderr);
        drawn_width_ = 0;
    }
}

std::string summary_line(long frames, long detections, double seconds) {
    char text[128];
    std::snprintf(text, sizeof text, "%ld frames, %ld detections, %.1f fps", frames, detections,
                  seconds > 0 ? static_cast<double>(frames) / seconds : 0.0);
    return text;
}

}  // namespace cascade::detect
