#include "gpu/frame_pipeline.hpp"

#include <stdexcept>

#include "gpu/cuda_check.hpp"

namespace cascade::gpu {

std::string gpu_name(int device) {
    cudaDeviceProp p{};
    CASCADE_CUDA_CHECK(cudaGetDeviceProperties(&p, device));
    return "GPU " + std::to_string(device) + " (" + p.name + ")";
}

int gpu_count() {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess) {
        (void)cudaGetLastError();  // the runtime's sticky "no device" error
        return 0;
    }
    return count;
}

FramePipeline::FramePipeline(const MakeDetector& make, const std::vector<int>& devices, int frames_in_flight) {
    if (devices.empty() || frames_in_flight < 1)
        throw std::invalid_argument("FramePipeline: no devices, or fewer than one frame in flight");
    int current = 0;
    CASCADE_CUDA_CHECK(cudaGetDevice(&current));
    try {
        for (int d : devices) {
            CASCADE_CUDA_CHECK(cudaSetDevice(d));
            const std::string name = gpu_name(d);
            for (int k = 0; k < frames_in_flight; ++k) {
                slots_.push_back({make(), name});
                slots_.back().detector->share_constants(*slots_.front().detector);
            }
        }
    } catch (...) {
        (void)cudaSetDevice(current);
        throw;
    }
    CASCADE_CUDA_CHECK(cudaSetDevice(current));
    for (Slot& slot : slots_) threads_.emplace_back(&FramePipeline::work, this, std::ref(slot));
}

FramePipeline::~FramePipeline() {
    drain();
    {
        const std::lock_guard<std::mutex> lock(mutex_);
        stop_ = true;
    }
    changed_.notify_all();
    for (std::thread& t : threads_) t.join();
    int current = 0;
    (void)cudaGetDevice(&current);
    for (Slot& slot : slots_) {  // each detector's buffers, stream and events are freed on its own device
        (void)cudaSetDevice(slot.detector->device());
        slot.detector.reset();
    }
    (void)cudaSetDevice(current);
}

int FramePipeline::in_flight() const {
    const std::lock_guard<std::mutex> lock(mutex_);
    return static_cast<int>(submitted_ - taken_);
}

void FramePipeline::submit(const GrayView& frame) {
    {
        const std::lock_guard<std::mutex> lock(mutex_);
        if (submitted_ - taken_ >= capacity()) throw std::logic_error("FramePipeline::submit: pipeline full");
        waiting_.push_back({submitted_++, frame});
    }
    changed_.notify_all();
}

std::vector<Detection> FramePipeline::take() {
    std::unique_lock<std::mutex> lock(mutex_);
    if (taken_ == submitted_) throw std::logic_error("FramePipeline::take: no frame in flight");
    changed_.wait(lock, [&] { return failure_ || done_.count(taken_) > 0; });
    if (failure_) std::rethrow_exception(failure_);
    const auto it = done_.find(taken_++);
    std::vector<Detection> windows = std::move(it->second);
    done_.erase(it);
    return windows;
}

void FramePipeline::drain() noexcept {
    std::unique_lock<std::mutex> lock(mutex_);
    waiting_.clear();
    changed_.wait(lock, [&] { return running_ == 0; });
    done_.clear();
    taken_ = submitted_;
}

void FramePipeline::work(Slot& slot) {
    while (true) {
        Job job;
        {
            std::unique_lock<std::mutex> lock(mutex_);
            changed_.wait(lock, [&] { return stop_ || (!failure_ && !waiting_.empty()); });
            if (stop_) return;
            job = waiting_.front();
            waiting_.pop_front();
            ++running_;
        }
        std::vector<Detection> windows;
        std::exception_ptr error;
        try {
            windows = slot.detector->detect(job.frame);
        } catch (const CudaError& e) {
            error = std::make_exception_ptr(CudaError(slot.name + ": " + e.what()));
        } catch (...) {
            error = std::current_exception();
        }
        {
            const std::lock_guard<std::mutex> lock(mutex_);
            --running_;
            if (error && !failure_) failure_ = error;
            if (!error) done_.emplace(job.index, std::move(windows));
        }
        changed_.notify_all();
    }
}

}  // namespace cascade::gpu
