// cascade-bench's feature families (bench/gpu/bench_core.hpp runs them): each parses its options and returns
// the run's exit status.
#pragma once

#include <memory>

namespace cascade {
struct PackedModel;
}

namespace cascade::bench {

class BenchFamily;
struct BenchOptions;

// cascade-bench [...]: the GPU LBP detector against OpenCV's CascadeClassifier (bench/gpu/lbp_bench.cpp).
int run_lbp_bench(int argc, char** argv);
// cascade-bench hog [...] (argv[0] is "hog"): the GPU HoG detector against OpenCV's HOGDescriptor people
// detector (bench/gpu/hog_bench.cpp).
int run_hog_bench(int argc, char** argv);
int run_haar_bench(int argc, char** argv);
// The family of an LBP or Haar cascade (`packed`, loaded from o.model), the one run_lbp_bench or
// run_haar_bench times; its OpenCV rows are OpenCV's CPU CascadeClassifier, loaded when o.opencv. Throws
// InputError for another kind of model (bench/gpu/opencv_cascade_bench.cpp).
std::unique_ptr<BenchFamily> cascade_family(const BenchOptions& o, const PackedModel& packed);
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
