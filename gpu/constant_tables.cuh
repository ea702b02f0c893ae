// Copying a cascade's stages and weak-learner records into a family's __constant__ arrays. Kernels read them
// through a view built in the kernel (the window source's view()), so every load is a constant-cache
// broadcast: the threads of a warp evaluate the same weak learner at the same time. Instantiate it in the
// file that defines the arrays.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <string>

#include "common/error.hpp"
#include "common/model.hpp"
#include "gpu/cuda_check.hpp"

namespace cascade::gpu {

// Copies `cascade`'s stages and weak learners to `stages` and `weaks`, ordered on `stream`.
// Throws InputError when they do not fit.
template <class Cascade, std::size_t kStages, class Weak, std::size_t kWeaks>
void upload_cascade_constants(const Cascade& cascade, const Stage (&stages)[kStages], const Weak (&weaks)[kWeaks],
                              cudaStream_t stream) {
    if (cascade.stages.size() > kStages || cascade.weaks.size() > kWeaks)
        throw InputError("GPU detector", "the model has " + std::to_string(cascade.stages.size()) + " stages and " +
                                             std::to_string(cascade.weaks.size()) +
                                             " weak learners; constant memory holds at most " +
                                             std::to_string(kStages) + " stages and " + std::to_string(kWeaks) +
                                             " weak learners");
    CASCADE_CUDA_CHECK(cudaMemcpyToSymbolAsync(stages, cascade.stages.data(), cascade.stages.size() * sizeof(Stage), 0,
                                               cudaMemcpyHostToDevice, stream));
    CASCADE_CUDA_CHECK(cudaMemcpyToSymbolAsync(weaks, cascade.weaks.data(), cascade.weaks.size() * sizeof(Weak), 0,
                                               cudaMemcpyHostToDevice, stream));
}

}  // namespace cascade::gpu
