#include "data/progress.hpp"

#include <cstdio>
#include <iostream>
#include <unistd.h>

#include "cli/duration_text.hpp"

namespace cascade::data {

Progress::Progress(std::string unit, int total, ProgressListener listener)
    : unit_(std::move(unit)),
      total_(total),
      start_(std::chrono::steady_clock::now()),
      terminal_(!listener && ::isatty(STDERR_FILENO) != 0),
      listener_(std::move(listener)) {}

Progress::~Progress() {
    if (drawn_) std::cerr << "\n";
}

double Progress::elapsed() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

void Progress::update(int done) {
    if (first_done_ < 0) first_done_ = done - 1;  // a resumed run starts counting at its first new unit
    done_ = done;
    if (listener_) listener_(done_, total_, "");
    draw();
}

void Progress::log(const std::string& line) {
    if (listener_) return listener_(done_, total_, line);
    clear();
    std::cout << line << std::endl;
    draw();
}

void Progress::clear() {
    if (drawn_) std::cerr << "\r\033[K" << std::flush;
    drawn_ = false;
}

void Progress::draw() {
    if (!terminal_ || total_ <= 0) return;
    constexpr int kWidth = 30;
    const int filled = static_cast<int>(static_cast<long long>(kWidth) * done_ / total_);
    const int measured = first_done_ >= 0 ? done_ - first_done_ : 0;
    const double eta = measured > 0 ? elapsed() / measured * (total_ - done_) : -1.0;
    std::cerr << "\r[" << std::string(static_cast<std::size_t>(filled), '#')
              << std::string(static_cast<std::size_t>(kWidth - filled), '.') << "] " << done_ << "/" << total_ << " "
              << unit_ << "  elapsed " << cli::duration_text(elapsed()) << "  ETA " << cli::duration_text(eta)
              << "\033[K" << std::flush;
    drawn_ = true;
}

}  // namespace cascade::data
