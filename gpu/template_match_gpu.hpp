// Template matching on the GPU: the score map of every position in OpenCV's six TM_* modes, and the exact
// matches (TM_SQDIFF == 0). CUDA and common/ only.
//
// Score maps come from a direct shared-memory kernel: each block loads its tile of the image (plus the
// template's halo) into shared memory once, computes every window's cross-correlation with common/'s
// window_cross on that tile and its window sums from row sums of the tile, all in exact uint32, and finishes
// each position with common/'s match_score, the CPU reference's code (compiled without FMA contraction). So the
// maps equal match::score_map's bit for bit. Large templates take the FFT path (gpu/template_fft_gpu.hpp), whose
// maps are the same bits while cuFFT's double rounding stays under half a unit; with MatchPath::automatic the
// first image of each size runs both paths (one warm-up and one timed run each, CUDA events) and the faster is
// kept for that size. Exact matches: one thread per position, common/'s window_equals
// (early exit) on the image in global memory, the hits appended to a list.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "common/score_map.hpp"
#include "common/template_score.hpp"
#include "gpu/device_buffer.hpp"
#include "gpu/template_fft_gpu.hpp"

namespace cascade::gpu {

// How score maps are computed: the direct shared-memory kernel, the FFT path, or the faster of them as timed on
// the first image of each size.
enum class MatchPath { automatic, direct, fft };

class TemplateMatcherGpu {
public:
    // requires: templ.channels in 1..3; templ.width() * templ.height() * channels * 255^2 < 2^32 (the uint32 sums:
    //           up to 256x256 in grey, 148x148 in colour); for MatchPath::direct, the tile of a block fitting in
    //           shared memory (checked: CudaError otherwise; automatic then takes the FFT path).
    TemplateMatcherGpu(const MatchPlanes& templ, MatchMethod method, MatchPath path = MatchPath::automatic);

    // The image (host memory) is uploaded and matched; it must have the template's channels and be at least
    // as large. score_map leaves the image on the device for rerun().
    ScoreMap score_map(const MatchPlanes& image);
    std::vector<MatchPosition> exact_matches(const MatchPlanes& image);  // row-major order

    // The path that computed the last score map (automatic before the first).
    MatchPath path() const { return size_path_; }

    // The score-map kernel again on the image of the last score_map, `repeats` times; its mean time in ms.
    float rerun(int repeats);

    // Shared memory a block needs for a template of this size (bytes); whether the device has that much.
    static std::size_t shared_bytes(int templ_width, int templ_height, int channels, MatchMethod method);

private:
    void upload(const MatchPlanes& image);
    void launch_scores();
    void launch_path(MatchPath path);
    float time_path(MatchPath path);

    Stream stream_;
    MatchMethod method_;
    MatchPath path_, size_path_ = MatchPath::automatic;  // requested; chosen for the image size of size_w_, size_h_
    int size_w_ = 0, size_h_ = 0;
    bool direct_fits_;
    TemplateStats stats_;
    int channels_, templ_w_, templ_h_;
    int image_w_ = 0, image_h_ = 0;
    DeviceBuffer<std::uint8_t> templ_;  // channels planes of templ_w_ x templ_h_
    std::unique_ptr<TemplateFftGpu> fft_;
    DeviceBuffer<std::uint8_t> image_;  // channels planes of image_w_ x image_h_
    DeviceBuffer<float> scores_;
    DeviceBuffer<MatchPosition> hits_;
    DeviceBuffer<unsigned int> hit_count_;
};

}  // namespace cascade::gpu
