#include "gpu/hog_layout.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "common/model.hpp"

namespace cascade::gpu {

HogFrameLayout make_hog_layout(Size frame, Size window, const PyramidParams& params, const ScanRule& rule) {
    HogFrameLayout out;
    out.base = make_layout(frame, window, params, rule, LayoutMode::exact);
    long long words = 0, strips = 0;
    for (GpuLevel& g : out.base.gpu) {
        g.integral_stride = kHogBins * (g.width + 1);
        if (words > std::numeric_limits<int>::max()) throw std::length_error("frame too large: integral histograms");
        g.integral_offset = static_cast<int>(words);
        words += (static_cast<long long>(g.integral_stride) * (g.height + 1) + kIntegralAlign - 1) / kIntegralAlign *
                 kIntegralAlign;
        GpuLevel w = g;
        w.width = g.integral_stride - 1;
        w.first_strip = static_cast<int>(strips);
        strips += (w.width + kStripWidth - 1) / kStripWidth;
        out.words.push_back(w);
    }
    if (words > std::numeric_limits<int>::max() || strips > std::numeric_limits<int>::max())
        throw std::length_error("frame too large: integral histograms");
    out.base.integral_elements = words;
    out.word_strips = static_cast<int>(strips);
    int widest = frame.width;  // levels are wider than the frame when params.first_scale < 1
    for (const GpuLevel& g : out.base.gpu) widest = std::max(widest, g.width);
    out.pitch = (widest + 127) / 128 * 128;
    return out;
}

}  // namespace cascade::gpu
