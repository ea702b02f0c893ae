// Template matching scores of one position, written once for the CPU reference (match/) and the GPU kernels:
// OpenCV 4.6's six cv::matchTemplate modes, from the exact integer cross-correlation of the position and its
// window's exact integer sums (integral images), finished in double as OpenCV's common_matchTemplate does.
//
// Images and templates are planes of 8-bit pixels (1 plane: grey; 3 planes: colour). As OpenCV, colour modes
// add the channels' correlations and squared sums, and TM_CCOEFF takes each channel's own mean.
#pragma once

#include <cmath>
#include <cstdint>

#include "common/hd.hpp"
#include "common/image.hpp"
#include "common/integral_view.hpp"

namespace cascade {

// The values are OpenCV's TM_* constants.
enum class MatchMethod { sqdiff = 0, sqdiff_normed = 1, ccorr = 2, ccorr_normed = 3, ccoeff = 4, ccoeff_normed = 5 };

constexpr int max_match_channels = 3;

// Up to three planes of equal size; planes[c] is channel c (OpenCV's order: B, G, R for colour).
struct MatchPlanes {
    GrayView planes[max_match_channels];
    int channels = 0;

    CASCADE_HD int width() const { return planes[0].width; }
    CASCADE_HD int height() const { return planes[0].height; }
};

// What the score of every position needs from the template, as OpenCV computes it (meanStdDev in double):
// `mean` the channel means (0 unless a TM_CCOEFF mode), `norm` sqrt of the sum of squares about `mean`,
// `sum2` the sum of squares (TM_SQDIFF modes), `flat`: TM_CCOEFF_NORMED of a constant template (every score 1).
struct TemplateStats {
    MatchMethod method = MatchMethod::sqdiff;
    int channels = 1;
    double mean[max_match_channels] = {0, 0, 0};
    double norm = 0;
    double sum2 = 0;
    double inv_area = 0;
    bool flat = false;
};

// The window sums a position's score needs: per-channel pixel sums and the sum of squares of all channels.
struct WindowSums {
    double sum[max_match_channels] = {0, 0, 0};
    double sum2 = 0;
};

// window_sums: the sums of the w x h window at (x, y) from the planes' integral images (exact integers).
CASCADE_HD WindowSums window_sums(const IntegralView* sums, int channels, SquareIntegralView squares, int x, int y,
                                  int w, int h) {
    WindowSums out;
    for (int c = 0; c < channels; ++c) out.sum[c] = sums[c].rect(x, y, w, h);
    out.sum2 = static_cast<double>(squares.rect(x, y, w, h));
    return out;
}

CASCADE_HD bool match_is_normed(MatchMethod m) { return static_cast<int>(m) % 2 == 1; }
CASCADE_HD bool match_is_ccoeff(MatchMethod m) { return m == MatchMethod::ccoeff || m == MatchMethod::ccoeff_normed; }
CASCADE_HD bool match_is_sqdiff(MatchMethod m) { return m == MatchMethod::sqdiff || m == MatchMethod::sqdiff_normed; }
// The best score is the smallest for the squared differences, the largest for the others.
CASCADE_HD bool match_lower_is_better(MatchMethod m) { return match_is_sqdiff(m); }

// window_cross: sum over channels and template pixels of T * I at top-left (x, y); exact in Acc (uint64 always;
//   uint32 while width * height * channels * 255^2 < 2^32).
template <typename Acc>
CASCADE_HD Acc window_cross(const MatchPlanes& image, const MatchPlanes& templ, int x, int y) {
    Acc acc = 0;
    for (int c = 0; c < templ.channels; ++c)
        for (int ty = 0; ty < templ.height(); ++ty) {
            const std::uint8_t* row = image.planes[c].data + (y + ty) * image.planes[c].stride + x;
            const std::uint8_t* t = templ.planes[c].data + ty * templ.planes[c].stride;
            for (int tx = 0; tx < templ.width(); ++tx) acc += Acc(row[tx]) * Acc(t[tx]);
        }
    return acc;
}

// window_equals: TM_SQDIFF == 0 at (x, y), stopping at the first pixel that differs (the exact-match case).
CASCADE_HD bool window_equals(const MatchPlanes& image, const MatchPlanes& templ, int x, int y) {
    for (int ty = 0; ty < templ.height(); ++ty)
        for (int c = 0; c < templ.channels; ++c) {
            const std::uint8_t* row = image.planes[c].data + (y + ty) * image.planes[c].stride + x;
            const std::uint8_t* t = templ.planes[c].data + ty * templ.planes[c].stride;
            for (int tx = 0; tx < templ.width(); ++tx)
                if (row[tx] != t[tx]) return false;
        }
    return true;
}

// match_score: OpenCV 4.6's score from the cross-correlation and the window sums (common_matchTemplate),
//   in double, returned as the float OpenCV stores. Normalised scores of windows whose spread is within
//   rounding of zero are 0 (1 for TM_SQDIFF_NORMED), as OpenCV's.
CASCADE_HD float match_score(const TemplateStats& s, double cross, const WindowSums& w) {
    if (s.flat) return 1.f;
    const MatchMethod m = s.method;
    double num = cross, wnd_mean2 = 0;
    if (match_is_ccoeff(m)) {
        for (int c = 0; c < s.channels; ++c) {
            wnd_mean2 += w.sum[c] * w.sum[c];
            num -= w.sum[c] * s.mean[c];
        }
        wnd_mean2 *= s.inv_area;
    }
    if (match_is_sqdiff(m)) {
        num = w.sum2 - 2 * num + s.sum2;
        num = num > 0 ? num : 0.;
    }
    if (!match_is_normed(m)) return static_cast<float>(num);
    const double diff2 = w.sum2 - wnd_mean2 > 0 ? w.sum2 - wnd_mean2 : 0.;
    const double tiny = 10 * 1.1920928955078125e-07 * w.sum2;  // 10 FLT_EPSILON of the window's energy
    const double t = diff2 <= (tiny < 0.5 ? tiny : 0.5) ? 0. : sqrt(diff2) * s.norm;
    const double a = num < 0 ? -num : num;
    if (a < t) return static_cast<float>(num / t);
    if (a < t * 1.125) return num > 0 ? 1.f : -1.f;
    return m != MatchMethod::sqdiff_normed ? 0.f : 1.f;
}

}  // namespace cascade
