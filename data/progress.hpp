// Progress of a long run: a bar with the fraction done and the estimated time left, redrawn in place on
// stderr when stderr is a terminal (and silent otherwise, so logs stay clean), and log lines on stdout that
// the bar makes way for. With a listener (the Python module's progress callback), every log line and update goes
// to it instead, with the units done and the total (line empty for an update), and nothing is printed.
#pragma once

#include <chrono>
#include <functional>
#include <string>

namespace cascade::data {

using ProgressListener = std::function<void(int done, int total, const std::string& line)>;

class Progress {
public:
    Progress(std::string unit, int total, ProgressListener listener = {});
    ~Progress();

    // `done` of `total` units finished; the ETA extrapolates the time per unit since construction (units done
    // before the first update, by a resumed run, left out).
    void update(int done);
    // Prints one line to stdout (flushed), keeping the bar below it.
    void log(const std::string& line);
    // Seconds since construction.
    double elapsed() const;

private:
    void draw();
    void clear();

    std::string unit_;
    int total_;
    int done_ = 0;
    int first_done_ = -1;  // units done before the first update (a resumed run's), left out of the ETA
    std::chrono::steady_clock::time_point start_;
    bool terminal_;
    bool drawn_ = false;
    ProgressListener listener_;
};

}  // namespace cascade::data
