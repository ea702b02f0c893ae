// Owner of a CUDA texture object over memory owned elsewhere (move-only; destroys the object, not the memory).
//   bilinear_u8: a pitched 8-bit image read as normalised floats with hardware bilinear filtering, unnormalised
//                coordinates (texel centres at i + 0.5), clamped at the borders;
//   linear_u32:  a linear array of uint32 read element by element (tex1Dfetch).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>
#include <utility>

#include "common/geometry.hpp"
#include "gpu/cuda_check.hpp"

namespace cascade::gpu {

// Bytes per row of a pitched image that a texture may read: `width` rounded up to 256, which satisfies every
// device's texturePitchAlignment.
inline std::size_t texture_pitch(int width) { return (static_cast<std::size_t>(width) + 255) / 256 * 256; }

class TextureObject {
public:
    TextureObject() = default;
    TextureObject(TextureObject&& o) noexcept : t_(std::exchange(o.t_, 0)) {}
    TextureObject& operator=(TextureObject&& o) noexcept {
        std::swap(t_, o.t_);
        return *this;
    }
    ~TextureObject() {
        if (t_) cudaDestroyTextureObject(t_);
    }
    cudaTextureObject_t get() const { return t_; }

    static TextureObject bilinear_u8(const std::uint8_t* pixels, Size size, std::size_t pitch) {
        cudaResourceDesc res;
        std::memset(&res, 0, sizeof res);
        res.resType = cudaResourceTypePitch2D;
        res.res.pitch2D.devPtr = const_cast<std::uint8_t*>(pixels);
        res.res.pitch2D.desc = cudaCreateChannelDesc<unsigned char>();
        res.res.pitch2D.width = static_cast<std::size_t>(size.width);
        res.res.pitch2D.height = static_cast<std::size_t>(size.height);
        res.res.pitch2D.pitchInBytes = pitch;
        cudaTextureDesc tex;
        std::memset(&tex, 0, sizeof tex);
        tex.addressMode[0] = tex.addressMode[1] = cudaAddressModeClamp;
        tex.filterMode = cudaFilterModeLinear;
        tex.readMode = cudaReadModeNormalizedFloat;
        tex.normalizedCoords = 0;
        return create(res, tex);
    }

    static TextureObject linear_u32(const std::uint32_t* data, std::size_t count) {
        cudaResourceDesc res;
        std::memset(&res, 0, sizeof res);
        res.resType = cudaResourceTypeLinear;
        res.res.linear.devPtr = const_cast<std::uint32_t*>(data);
        res.res.linear.desc = cudaCreateChannelDesc<unsigned int>();
        res.res.linear.sizeInBytes = count * sizeof(std::uint32_t);
        cudaTextureDesc tex;
        std::memset(&tex, 0, sizeof tex);
        tex.addressMode[0] = cudaAddressModeClamp;
        tex.filterMode = cudaFilterModePoint;
        tex.readMode = cudaReadModeElementType;
        return create(res, tex);
    }

private:
    static TextureObject create(const cudaResourceDesc& res, const cudaTextureDesc& tex) {
        TextureObject out;
        CASCADE_CUDA_CHECK(cudaCreateTextureObject(&out.t_, &res, &tex, nullptr));
        return out;
    }
    cudaTextureObject_t t_ = 0;
};

}  // namespace cascade::gpu
