#include "detect/frame_prefetch.hpp"

namespace cascade::detect {

FramePrefetch::FramePrefetch(std::vector<Source> sources, VideoLimits limits, InputRules rules, WarningSink warn,
                             std::size_t ahead)
    : warn_(std::move(warn)), ahead_(ahead),
      thread_(&FramePrefetch::produce, this, std::move(sources), limits, rules) {}

FramePrefetch::~FramePrefetch() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stop_ = true;
    }
    changed_.notify_all();
    thread_.join();
}

void FramePrefetch::produce(std::vector<Source> sources, VideoLimits limits, InputRules rules) {
    std::vector<std::pair<std::string, std::string>> warnings;
    // Pushes one item (the last one: no frame) unless the consumer is gone; false when it is, or after the last.
    auto push = [&](Item item) {
        std::unique_lock<std::mutex> lock(mutex_);
        changed_.wait(lock, [&] { return stop_ || items_.size() < ahead_; });
        if (stop_) return false;
        const bool more = item.has_frame;
        items_.push_back(std::move(item));
        changed_.notify_all();
        return more;
    };
    try {
        FrameReader reader(std::move(sources), limits, rules,
                           [&](const std::string& subject, const std::string& problem) {
                               warnings.emplace_back(subject, problem);
                           });
        while (true) {
            Item item;
            item.has_frame = reader.next(item.frame);
            item.warnings = std::move(warnings);
            warnings.clear();
            if (!push(std::move(item))) return;
        }
    } catch (...) {
        Item failed;
        failed.warnings = std::move(warnings);
        failed.error = std::current_exception();
        push(std::move(failed));
    }
}

bool FramePrefetch::next(Frame& frame) {
    Item item;
    {
        std::unique_lock<std::mutex> lock(mutex_);
        changed_.wait(lock, [&] { return !items_.empty(); });
        Item& front = items_.front();
        if (front.has_frame) {
            item = std::move(front);
            items_.pop_front();
            changed_.notify_all();
        } else {  // the last item stays, so that later calls give the same answer
            item.error = front.error;
            item.warnings = std::move(front.warnings);
            front.warnings.clear();
        }
    }
    for (const auto& [subject, problem] : item.warnings) warn_(subject, problem);
    if (item.error) std::rethrow_exception(item.error);
    if (!item.has_frame) return false;
    frame = std::move(item.frame);
    return true;
}

}  // namespace cascade::detect
