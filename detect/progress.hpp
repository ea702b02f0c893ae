// Progress on stderr: a single self-overwriting line "[####....] 120/795 15% 23.4 fps ETA 0:29", redrawn at
// most 10 times a second, and the final summary line "N frames, M detections, X fps".
//
// A disabled Progress prints nothing. note() prints a line (a warning) above the bar. The destructor ends a
// bar that is still drawn, so an error message printed afterwards starts on a fresh line.
#pragma once

#include <chrono>
#include <string>

namespace cascade::detect {

class Progress {
public:
    Progress(bool enabled, long total);  // total 0: unknown (no percentage or ETA)
    ~Progress();
    Progress(const Progress&) = delete;
    Progress& operator=(const Progress&) = delete;

    void advance(long done);
    void note(const std::string& line);
    void finish();  // erases the bar

private:
    void draw(long done);
    void erase();

    bool enabled_;
    bool tty_;
    long total_;
    long done_ = 0;
    std::size_t drawn_width_ = 0;  // 0: nothing on the line
    long drawn_done_ = -1;
    std::chrono::steady_clock::time_point start_, last_draw_;
};

std::string summary_line(long frames, long detections, double seconds);

// Whether a bar belongs on this run's stderr: not --quiet, and --progress or stderr is a terminal.
bool progress_wanted(bool quiet, bool forced);

}  // namespace cascade::detect
