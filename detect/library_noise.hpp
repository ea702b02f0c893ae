// Keeps third-party chatter off stderr, so that the tool's own one-line messages are all a user sees.
//
// quiet_libraries(): OpenCV's log off, FFmpeg's log off (unless OPENCV_FFMPEG_LOGLEVEL is set by the user);
// call once before any OpenCV I/O.
// StderrCapture: while alive, file descriptor 2 goes to a temporary file; text() stops the capture and
// returns what was written (e.g. libjpeg's "Premature end of JPEG file"), trimmed to its first line. Use it
// only around decoder calls on the main thread; nothing else may write to stderr meanwhile.
#pragma once

#include <cstdio>
#include <string>

namespace cascade::detect {

void quiet_libraries();

class StderrCapture {
public:
    StderrCapture();
    ~StderrCapture();
    StderrCapture(const StderrCapture&) = delete;
    StderrCapture& operator=(const StderrCapture&) = delete;
    std::string text();  // stops the capture; the first non-empty line written, "" if none

private:
    void restore();
    std::FILE* file_ = nullptr;
    int saved_fd_ = -1;
};

}  // namespace cascade::detect
