// Decoding ahead of detection: a FrameReader (detect/frames.hpp) on a thread of its own, a few frames ahead, so
// that decoding the next frame overlaps detecting the current one (on the GPU backend, the upload and the
// kernels of one frame run while the CPU decodes the next).
//
// next() gives the reader's frames in order, then false; an error the reader threw is rethrown by the next()
// that reaches it. Decoder warnings reach `warn` on the caller's thread, before the frame they came with.
// The destructor stops the thread (frames not taken are dropped).
#pragma once

#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "detect/frames.hpp"

namespace cascade::detect {

class FramePrefetch {
public:
    FramePrefetch(std::vector<Source> sources, VideoLimits limits, InputRules rules, WarningSink warn,
                  std::size_t ahead = 3);
    ~FramePrefetch();
    FramePrefetch(const FramePrefetch&) = delete;
    FramePrefetch& operator=(const FramePrefetch&) = delete;

    bool next(Frame& frame);

private:
    struct Item {
        std::vector<std::pair<std::string, std::string>> warnings;  // (subject, problem)
        bool has_frame = false;
        Frame frame;
        std::exception_ptr error;
    };
    void produce(std::vector<Source> sources, VideoLimits limits, InputRules rules);

    WarningSink warn_;
    std::size_t ahead_;
    std::mutex mutex_;
    std::condition_variable changed_;
    std::deque<Item> items_;
    bool stop_ = false;
    std::thread thread_;
};

}  // namespace cascade::detect
