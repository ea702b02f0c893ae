// Optional per-kernel timing with CUDA events: begin(name)/end() around each launch on one stream; after the
// stream has been synchronised, collect() returns the times in launch order. A disabled timer records
// nothing and costs nothing. Events are pooled across frames.
#pragma once

#include <string>
#include <vector>

#include "gpu/device_buffer.hpp"
#include "gpu/detector_types.hpp"

namespace cascade::gpu {

class KernelTimer {
public:
    void reset(bool enabled) {
        enabled_ = enabled;
        names_.clear();
    }
    void begin(const std::string& name, cudaStream_t s) {
        if (!enabled_) return;
        const std::size_t i = names_.size();
        names_.emplace_back(name);
        while (events_.size() < 2 * (i + 1)) events_.emplace_back();
        events_[2 * i].record(s);
    }
    void end(cudaStream_t s) {
        if (enabled_ && !names_.empty()) events_[2 * (names_.size() - 1) + 1].record(s);
    }
    std::vector<KernelTime> collect() const {
        std::vector<KernelTime> out;
        for (std::size_t i = 0; i < names_.size(); ++i)
            out.push_back({names_[i], events_[2 * i + 1].since(events_[2 * i])});
        return out;
    }

private:
    bool enabled_ = false;
    std::vector<std::string> names_;
    std::vector<Event> events_;
};

}  // namespace cascade::gpu
