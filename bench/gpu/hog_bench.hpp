// cascade-bench hog: times the GPU HoG detector (gpu/hog_gpu_detector.hpp) and OpenCV's CPU HOGDescriptor
// people detector on the same real frames, in one run, per (resolution, scale step) at one stride.
//
// For each resolution and scale step: OpenCV's HOGDescriptor::detectMultiScale with getDefaultPeopleDetector()
// (64x128 window, the same stride and scale step, no padding, no grouping, all cores), then each configuration
// MODE/STRATEGY: warm-up frames (enough for 'auto' to settle), timed frames cycling through the set: median
// and p90 of the device time (pyramid + cascade, CUDA events), the median detect() call, survivors after each
// compaction point, per-step medians from a second detector with kernel timing (resample, gradient + integral
// rows, integral columns, early stages = the first group, late stages, skip rule, transfers = upload +
// download), and
// parity: exact mode must give detect_windows' raw windows on the first frames. Exit 1 on a parity failure.
#pragma once

namespace cascade::bench {

// argv[0] is "hog"; the rest are its options (--help lists them). Returns the exit status.
int run_hog_bench(int argc, char** argv);

}  // namespace cascade::bench
