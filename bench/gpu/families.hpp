// cascade-bench's feature families (bench/gpu/bench_core.hpp runs them): each parses its options and returns
// the run's exit status.
#pragma once

namespace cascade::bench {

// cascade-bench [...]: the GPU LBP detector against OpenCV's CascadeClassifier (bench/gpu/lbp_bench.cpp).
int run_lbp_bench(int argc, char** argv);
// cascade-bench hog [...] (argv[0] is "hog"): the GPU HoG detector against OpenCV's HOGDescriptor people
// detector (bench/gpu/hog_bench.cpp).
int run_hog_bench(int argc, char** argv);
int run_haar_bench(int argc, char** argv);
// cascade-bench match [...] (argv[0] is "match"): the GPU template matcher against cv::matchTemplate
// (bench/gpu/match_bench.cpp).
int run_match_bench(int argc, char** argv);
// cascade-bench covariance [...]: region covariance search on the GPU against the CPU reference
// (bench/gpu/covariance_bench.cpp).
int run_covariance_bench(int argc, char** argv);
// cascade-bench keypoints [...]: the GPU FOAGDD detector against cv::cornerHarris, cv::goodFeaturesToTrack and the
// CPU reference (bench/gpu/keypoints_bench.cpp).
int run_keypoints_bench(int argc, char** argv);

}  // namespace cascade::bench
