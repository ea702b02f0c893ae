// The scans the GPU detector tests compare with the CPU reference: a scale step, a stride (0: OpenCV's rule) and
// a first scale (below 1: levels larger than the frame), as the CPU's ScanParams and a family's GPU options.
#pragma once

#include <doctest/doctest.h>

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

// A fixed-stride scan visits every position on both sides, so after each compaction group the GPU's survivors are
// the CPU's windows that passed the group's stages. Checks that (in the caller's INFO scope); returns how many
// survivor counts it compared.
inline long long check_survivors(const gpu::GpuStats& gpu, const ScanStats& cpu) {
    CHECK(gpu.windows == cpu.windows);
    REQUIRE(gpu.survivors.size() == gpu.group_end_stage.size());
    for (std::size_t g = 0; g < gpu.survivors.size(); ++g)
        CHECK(gpu.survivors[g] == passed_stages(cpu, gpu.group_end_stage[g]));
    return static_cast<long long>(gpu.survivors.size());
}

}  // namespace cascade::test
