// The FFT path of the GPU template matcher (gpu/template_match_gpu.hpp) for large templates: the
// cross-correlation of every position through cuFFT in double (the image's planes and the template zero-padded
// to one FFT size of factors 2, 3, 5 and 7 covering the image; the product of the spectra summed over the
// channels; one inverse transform), rounded to the nearest integer, which is the exact integer correlation while
// the transform's rounding stays under 0.5 (for 8-bit planes of up to 3 x 16 M pixels and 128x128 templates it
// is below 1e-3: tested equal to the CPU reference bit for bit). The window sums come from exact integral images
// (uint32 per channel, uint64 of the squares) built on the device, and each position is finished by common/'s
// match_score, as the direct kernel and the CPU reference do.
#pragma once

#include <cufft.h>

#include <cstdint>

#include "common/template_score.hpp"
#include "gpu/device_buffer.hpp"

namespace cascade::gpu {

class TemplateFftGpu {
public:
    // `templ` on the device: `channels` planes of w x h bytes, contiguous; it must outlive this object.
    TemplateFftGpu(const std::uint8_t* templ, int channels, int w, int h, const TemplateStats& stats,
                   cudaStream_t stream);
    ~TemplateFftGpu();
    TemplateFftGpu(const TemplateFftGpu&) = delete;
    TemplateFftGpu& operator=(const TemplateFftGpu&) = delete;

    // The scores of every position of `image` (device planes as the template's, image_w x image_h) into `out`
    // ((image_w - w + 1) x (image_h - h + 1) floats), queued on the stream. Plans and the template's spectrum
    // are made again when the image size changes.
    void scores(const std::uint8_t* image, int image_w, int image_h, float* out);

private:
    void prepare(int image_w, int image_h);
    void destroy_plans();

    const std::uint8_t* templ_;
    int channels_, w_, h_;
    TemplateStats stats_;
    cudaStream_t stream_;
    int image_w_ = 0, image_h_ = 0, fft_w_ = 0, fft_h_ = 0;
    cufftHandle forward_ = 0, inverse_ = 0;
    bool plans_ = false;
    DeviceBuffer<double> real_;                 // channels padded planes, fft_h_ x fft_w_
    DeviceBuffer<cufftDoubleComplex> spectra_;  // channels spectra of the image, fft_h_ x (fft_w_ / 2 + 1)
    DeviceBuffer<cufftDoubleComplex> templ_spectra_;
    DeviceBuffer<std::uint32_t> sums_;  // channels integral images, (image_w + 1) x (image_h + 1)
    DeviceBuffer<std::uint64_t> squares_;
};

}  // namespace cascade::gpu
