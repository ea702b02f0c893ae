// What every GPU detector shares, whatever its feature family: the pyramid modes, the compaction strategies,
// the options of the detector core and the record of one detect() call.
#pragma once

#include <string>
#include <vector>

#include "common/pyramid.hpp"
#include "common/scan.hpp"

namespace cascade::gpu {

// exact: the CPU's levels and pixels (raw windows and scores equal the CPU reference's);
// texture: levels sampled by the texture units (close to the CPU's; each family states how).
enum class PyramidMode { exact, texture };
enum class Compaction { none, global_atomic, shared_atomic, hybrid, prefix_sum, automatic };

// The five concrete strategies, in a fixed order (automatic tries them in this order).
const std::vector<Compaction>& concrete_compactions();
std::string to_string(Compaction c);
std::string to_string(PyramidMode m);
// Parses "none", "global_atomic", ..., "auto"/"automatic"; throws InputError naming `option` otherwise.
Compaction parse_compaction(const std::string& text, const std::string& option = "--strategy");

// The detector core's options; each family's options add its defaults and tuning knobs.
struct GpuOptions {
    PyramidMode mode = PyramidMode::exact;
    Compaction compaction = Compaction::automatic;
    std::vector<int> compaction_points;  // in weak learners, increasing; rounded up to stage boundaries
    ScanRule rule;                       // stride; 0 = OpenCV's rule
    PyramidParams pyramid;
    int auto_frames = 3;        // frames timed per strategy by automatic (the first of each is a warm-up)
    bool time_kernels = false;  // record an event pair around every kernel (stats.kernels); slightly slower
};

struct KernelTime {
    std::string name;
    float ms = 0.f;
};

// What one detect() call did.
struct GpuStats {
    Compaction strategy = Compaction::none;  // the strategy that ran this frame
    std::vector<int> group_end_stage;        // stage boundaries where survivors were compacted, then num_stages
    std::vector<int> group_end_weak;         // the same boundaries counted in weak learners
    long long windows = 0;                   // window positions evaluated (every position of the grid)
    // survivors[g]: windows that passed every stage before group_end_stage[g]; with OpenCV's rule, from group 1
    // on only those at positions its scan visits where the strategy drops the others early (gpu/cascade_target.hpp
    // drops_unvisited_early), else the last entry counts accepted windows before that rule is applied; -1 where
    // the strategy does not count (none: inner points).
    std::vector<long long> survivors;
    long long detections = 0;  // raw windows returned
    float upload_ms = 0.f;     // host staging copy is not included; the H2D copy is
    float pyramid_ms = 0.f;    // the feature planes of every level (level images, integral images or histograms)
    float cascade_ms = 0.f;    // cascade kernels, skip resolution, filtering
    float download_ms = 0.f;
    float gpu_ms = 0.f;        // pyramid + cascade: the detection time on the device
    std::vector<KernelTime> kernels;  // when options.time_kernels
};

}  // namespace cascade::gpu
