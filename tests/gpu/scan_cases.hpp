// The scans the GPU detector tests compare with the CPU reference: a scale step, a stride (0: OpenCV's rule) and
// a first scale (below 1: levels larger than the frame), as the CPU's ScanParams and a family's GPU options.
#pragma once

#include "common/scan.hpp"
#include "gpu/detector_types.hpp"

namespace cascade::test {

struct Scan {
    double factor;
    int stride;
    double first_scale = 1.0;
};

inline ScanParams params_of(const Scan& scan) {
    ScanParams p;
    p.pyramid.scale_factor = scan.factor;
    p.pyramid.first_scale = scan.first_scale;
    p.rule.stride = scan.stride;
    return p;
}

// A family's options (HogGpuOptions, CovGpuOptions, ...) for `scan` and `compaction`; automatic settles after 2
// frames.
template <class Options>
Options options_of(const Scan& scan, gpu::Compaction compaction) {
    Options o;
    o.compaction = compaction;
    o.pyramid = params_of(scan).pyramid;
    o.rule.stride = scan.stride;
    o.auto_frames = 2;
    return o;
}

// Windows of a fixed-stride CPU scan that passed stages [0, stage): those rejected at a later stage or accepted,
// what a GPU detector's survivor count after that stage must be.
inline long long passed_stages(const ScanStats& cpu, int stage) {
    long long passed = 0;
    for (auto s = static_cast<std::size_t>(stage); s < cpu.rejected_at.size(); ++s) passed += cpu.rejected_at[s];
    return passed;
}

}  // namespace cascade::test
