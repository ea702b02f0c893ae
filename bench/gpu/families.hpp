// cascade-bench's feature families (bench/gpu/bench_core.hpp runs them): each parses its options and returns
// the run's exit status.
#pragma once

#include <memory>
#include <string>

#include "bench/gpu/bench_core.hpp"

namespace cascade {
struct PackedModel;
}

namespace cascade::bench {

// cascade-bench [...]: the GPU LBP detector against OpenCV's CascadeClassifier (bench/gpu/lbp_bench.cpp).
int run_lbp_bench(int argc, char** argv);
// cascade-bench hog [...] (argv[0] is "hog"): the GPU HoG detector against OpenCV's HOGDescriptor people
// detector (bench/gpu/hog_bench.cpp).
int run_hog_bench(int argc, char** argv);
// cascade-bench cov [...]: the GPU region covariance detector, with parity against the CPU reference
// (bench/gpu/cov_bench.cpp).
int run_cov_bench(int argc, char** argv);
// cascade-bench haar [...]: the GPU Haar detector against CascadeClassifier with OpenCV's Haar cascades.
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

// cascade-bench --throughput [...]: frames per second with several frames in flight, on one or several GPUs
// (bench/gpu/throughput_bench.cpp).
int run_throughput_bench(int argc, char** argv);

// The families for the throughput benchmark: each bench's default options, its model o.model (filled with the
// default, models/ of o.data, when empty). The LBP and Haar ones live in opencv_cascade_bench.cpp, which
// cascade-bench-opencv-cuda also links; the HoG ones in hog_bench.cpp, which it does not.
BenchOptions lbp_defaults();
BenchOptions haar_defaults();
BenchOptions hog_defaults();
std::unique_ptr<BenchFamily> make_lbp_family(BenchOptions& o);
std::unique_ptr<BenchFamily> make_hog_family(BenchOptions& o);
std::unique_ptr<BenchFamily> make_haar_family(BenchOptions& o);

}  // namespace cascade::bench
