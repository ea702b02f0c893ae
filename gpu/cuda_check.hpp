// Error handling for CUDA runtime calls in host code.
//
// CASCADE_CUDA_CHECK(call): throws CudaError naming the call, the file and line, and CUDA's own message when
// `call` does not return cudaSuccess. Use it on every runtime call and after every launch
// (CASCADE_CUDA_CHECK(cudaGetLastError())): an exit code of 0 proves nothing on a GPU.
#pragma once

#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>

namespace cascade::gpu {

class CudaError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

inline void cuda_check(cudaError_t status, const char* call, const char* file, int line) {
    if (status != cudaSuccess)
        throw CudaError(std::string(file) + ":" + std::to_string(line) + ": " + call + ": " +
                        cudaGetErrorName(status) + " (" + cudaGetErrorString(status) + ")");
}

// True when the CUDA runtime sees at least one device. Clears the runtime's sticky "no device" error.
inline bool cuda_device_available() {
    int count = 0;
    const cudaError_t status = cudaGetDeviceCount(&count);
    if (status != cudaSuccess) {
        (void)cudaGetLastError();
        return false;
    }
    return count > 0;
}

}  // namespace cascade::gpu

#define CASCADE_CUDA_CHECK(call) ::cascade::gpu::cuda_check((call), #call, __FILE__, __LINE__)
