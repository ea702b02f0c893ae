// Host planes of 8-bit pixels (one size, any stride) packed into one device buffer, plane after plane (width x
// height bytes each, no padding), the copies ordered on `stream`. The template matchers' upload.
#pragma once

#include <cstdint>

#include "common/image.hpp"
#include "gpu/cuda_check.hpp"
#include "gpu/device_buffer.hpp"

namespace cascade::gpu {

inline void upload_planes(const GrayView* planes, int count, DeviceBuffer<std::uint8_t>& buffer, cudaStream_t stream) {
    const int w = planes[0].width, h = planes[0].height;
    const std::size_t plane = static_cast<std::size_t>(w) * h;
    buffer.resize(plane * count);
    for (int c = 0; c < count; ++c)
        CASCADE_CUDA_CHECK(cudaMemcpy2DAsync(buffer.get() + c * plane, w, planes[c].data, planes[c].stride, w, h,
                                             cudaMemcpyHostToDevice, stream));
}

}  // namespace cascade::gpu
