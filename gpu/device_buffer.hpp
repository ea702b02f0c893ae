// RAII owners for CUDA resources used by the GPU detectors: device memory, pinned host memory, a stream, an
// event. Each owner is move-only; a default-constructed or moved-from owner holds nothing. Freeing never
// throws (errors on release are ignored: the context may already be gone at process exit).
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

#include "gpu/cuda_check.hpp"

namespace cascade::gpu {

// `count` elements of T in device memory (uninitialised). resize() reallocates only when growing.
template <class T>
class DeviceBuffer {
public:
    DeviceBuffer() = default;
    explicit DeviceBuffer(std::size_t count) { resize(count); }
    DeviceBuffer(DeviceBuffer&& o) noexcept : ptr_(std::exchange(o.ptr_, nullptr)), size_(std::exchange(o.size_, 0)) {}
    DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
        std::swap(ptr_, o.ptr_);
        std::swap(size_, o.size_);
        return *this;
    }
    ~DeviceBuffer() { cudaFree(ptr_); }

    // Ensures capacity for `count` elements; returns true when it reallocated (old contents are lost).
    bool resize(std::size_t count) {
        if (count <= size_ && ptr_) return false;
        cudaFree(ptr_);
        ptr_ = nullptr;
        size_ = 0;
        CASCADE_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&ptr_), std::max<std::size_t>(count, 1) * sizeof(T)));
        size_ = count;
        return true;
    }
    T* get() const { return ptr_; }
    std::size_t size() const { return size_; }

private:
    T* ptr_ = nullptr;
    std::size_t size_ = 0;
};

// `count` elements of T in page-locked host memory, so that copies to and from the device run asynchronously.
template <class T>
class PinnedBuffer {
public:
    PinnedBuffer() = default;
    PinnedBuffer(PinnedBuffer&& o) noexcept : ptr_(std::exchange(o.ptr_, nullptr)), size_(std::exchange(o.size_, 0)) {}
    PinnedBuffer& operator=(PinnedBuffer&& o) noexcept {
        std::swap(ptr_, o.ptr_);
        std::swap(size_, o.size_);
        return *this;
    }
    ~PinnedBuffer() { cudaFreeHost(ptr_); }

    void resize(std::size_t count) {
        if (count <= size_ && ptr_) return;
        cudaFreeHost(ptr_);
        ptr_ = nullptr;
        size_ = 0;
        CASCADE_CUDA_CHECK(cudaMallocHost(reinterpret_cast<void**>(&ptr_), std::max<std::size_t>(count, 1) * sizeof(T)));
        size_ = count;
    }
    T* get() const { return ptr_; }
    std::size_t size() const { return size_; }

private:
    T* ptr_ = nullptr;
    std::size_t size_ = 0;
};

// Sizes `buffer` for `data` and copies it there, ordered on `stream`; `data` must outlive the copy (synchronise
// the stream before it goes).
template <class T>
void copy_to_device(DeviceBuffer<T>& buffer, const std::vector<T>& data, cudaStream_t stream) {
    buffer.resize(data.size());
    CASCADE_CUDA_CHECK(
        cudaMemcpyAsync(buffer.get(), data.data(), data.size() * sizeof(T), cudaMemcpyHostToDevice, stream));
}

class Stream {
public:
    Stream() { CASCADE_CUDA_CHECK(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking)); }
    Stream(Stream&& o) noexcept : s_(std::exchange(o.s_, nullptr)) {}
    Stream& operator=(Stream&&) = delete;
    ~Stream() {
        if (s_) cudaStreamDestroy(s_);
    }
    cudaStream_t get() const { return s_; }

private:
    cudaStream_t s_ = nullptr;
};

class Event {
public:
    Event() { CASCADE_CUDA_CHECK(cudaEventCreate(&e_)); }
    Event(Event&& o) noexcept : e_(std::exchange(o.e_, nullptr)) {}
    Event& operator=(Event&&) = delete;
    ~Event() {
        if (e_) cudaEventDestroy(e_);
    }
    cudaEvent_t get() const { return e_; }
    void record(cudaStream_t s) const { CASCADE_CUDA_CHECK(cudaEventRecord(e_, s)); }
    // Milliseconds from `start` to this event; both must have completed.
    float since(const Event& start) const {
        float ms = 0.f;
        CASCADE_CUDA_CHECK(cudaEventElapsedTime(&ms, start.e_, e_));
        return ms;
    }

private:
    cudaEvent_t e_ = nullptr;
};

}  // namespace cascade::gpu
