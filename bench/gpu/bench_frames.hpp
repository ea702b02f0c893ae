// Benchmark frames: real frames read from PGM files, centre-cropped to the target aspect ratio and resized
// (INTER_AREA) to the target resolution, so every resolution sees the same scenes.
#pragma once

#include <opencv2/core.hpp>
#include <string>
#include <vector>

namespace cascade::bench {

// The benchmark's frames: frames/*.pgm then bench-frames/*.pgm of the data folder, at most max_sources (0: all);
// throws InputError naming the folder when there are none.
std::vector<std::string> bench_frame_sources(const std::string& data, int max_sources);

// requires: paths name readable 8-bit PGM files; size non-empty. Throws InputError naming a bad file.
std::vector<cv::Mat> load_bench_frames(const std::vector<std::string>& paths, cv::Size size);

}  // namespace cascade::bench
