// cascade-bench's command line keeps the tools' error contract (cli/): a bad option or value is one line
// naming the option, exit 2, before any frame is read or any GPU is touched, so it runs everywhere.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "tests/support/tool_run.hpp"

using namespace cascade::test;

namespace {

void check_usage_error(const std::vector<std::string>& args, const std::string& option) {
    CAPTURE(args.back());
    check_error(run_tool(CASCADE_BENCH_EXE, args), 2, "cascade-bench", option);
}

}  // namespace

TEST_CASE("cascade-bench: a value that is not wholly a number is refused, naming its option") {
    check_usage_error({"--frames", "10x"}, "--frames");
    check_usage_error({"--warmup", "ten"}, "--warmup");
    check_usage_error({"--scale-factor", "1.1.1"}, "--scale-factor");
    check_usage_error({"hog", "--stride", "8px"}, "--stride");
    check_usage_error({"hog", "--scales", "1.05,abc"}, "--scales");
    check_usage_error({"--points", "4,x"}, "--points");
    check_usage_error({"--resolutions", "640x480junk"}, "--resolutions");
    check_usage_error({"--configs", "exact/2x/shared"}, "--configs");
}

TEST_CASE("cascade-bench: values out of range and unknown options are usage errors") {
    check_usage_error({"--frames", "0"}, "--frames");
    check_usage_error({"hog", "--stride", "-1"}, "--stride");
    check_usage_error({"--configs", "exact/-1/shared"}, "--configs");
    check_usage_error({"--scale-factor", "1"}, "--scale-factor");
    check_usage_error({"hog", "--scales", "1.05,0.9"}, "--scales");
    check_usage_error({"--resolutions", "0x480"}, "--resolutions");
    check_usage_error({"--no-such-option"}, "--no-such-option");
    check_usage_error({"--frames"}, "--frames");
    check_usage_error({"--configs", "cuda/shared"}, "--configs");
}

TEST_CASE("cascade-bench match and covariance: bad values are usage errors naming their option") {
    check_usage_error({"match", "--channels", "2"}, "--channels");
    check_usage_error({"match", "--templates", "16,x"}, "--templates");
    check_usage_error({"match", "--templates", "0"}, "--templates");
    check_usage_error({"match", "--resolutions", "64x48", "--templates", "128"}, "--templates");
    check_usage_error({"match", "--repeats", "0"}, "--repeats");
    check_usage_error({"match", "--path", "fast"}, "--path");
    check_usage_error({"match", "--no-such-option", "1"}, "--no-such-option");
    check_usage_error({"covariance", "--step", "0"}, "--step");
    check_usage_error({"covariance", "--target", "4"}, "--target");
    check_usage_error({"covariance", "--resolution", "5000x3000"}, "--resolution");
    check_usage_error({"covariance", "--cpu-frames", "0"}, "--cpu-frames");
}

TEST_CASE("cascade-bench keypoints: bad values are usage errors naming their option") {
    check_usage_error({"keypoints", "--resolutions", "8x8"}, "--resolutions");
    check_usage_error({"keypoints", "--resolutions", "640xA"}, "--resolutions");
    check_usage_error({"keypoints", "--frames", "0"}, "--frames");
    check_usage_error({"keypoints", "--repeats", "0"}, "--repeats");
    check_usage_error({"keypoints", "--threads", "-1"}, "--threads");
    check_usage_error({"keypoints", "--no-such-option", "1"}, "--no-such-option");
}
