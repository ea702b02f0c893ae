// cascade-bench: times a GPU detector's strategies and OpenCV's CPU detector on the same real frames, in one
// run, on the machine it runs on (see docs/benchmarks.md): `cascade-bench [...]` the LBP detector against
// CascadeClassifier, `cascade-bench hog [...]` the HoG detector against HOGDescriptor, `cascade-bench cov [...]`
// the region covariance detector (parity with the CPU reference), `cascade-bench match [...]`
// the template matcher against cv::matchTemplate, `cascade-bench covariance [...]` region covariance against the
// CPU reference, `cascade-bench keypoints [...]` FOAGDD corners against cv::cornerHarris and goodFeaturesToTrack,
// `cascade-bench --throughput [...]` frames per second with several frames in flight on one or more GPUs
// (bench/gpu/families.hpp).
// Frames are PGM files (the GPU machine has no OpenCV codecs), centre-cropped and resized to each resolution.
#include <string>

#include "bench/gpu/families.hpp"
#include "cli/tool_main.hpp"

int main(int argc, char** argv) {
    using namespace cascade;
    return cli::run_tool("cascade-bench", [&] {
        if (argc > 1 && std::string(argv[1]) == "--throughput") return bench::run_throughput_bench(argc - 1, argv + 1);
        if (argc > 1 && std::string(argv[1]) == "hog") return bench::run_hog_bench(argc - 1, argv + 1);
        if (argc > 1 && std::string(argv[1]) == "haar") return bench::run_haar_bench(argc - 1, argv + 1);
        if (argc > 1 && std::string(argv[1]) == "cov") return bench::run_cov_bench(argc - 1, argv + 1);
        if (argc > 1 && std::string(argv[1]) == "match") return bench::run_match_bench(argc - 1, argv + 1);
        if (argc > 1 && std::string(argv[1]) == "covariance") return bench::run_covariance_bench(argc - 1, argv + 1);
        if (argc > 1 && std::string(argv[1]) == "keypoints") return bench::run_keypoints_bench(argc - 1, argv + 1);
        return bench::run_lbp_bench(argc, argv);
    });
}
