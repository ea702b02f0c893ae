// cascade-bench cov: the GPU region covariance detector (gpu/cov_gpu_detector.hpp) on the same frames, resolutions
// and scale steps as cascade-bench hog, with parity against the CPU reference; no OpenCV peer (OpenCV has no
// covariance detector). Its kernel medians are summed into: resample, feature cells, integral rows + columns,
// early stages (the first group), late stages, stages (one kernel: the shared-memory strategy).
// --model random[:SEED] runs a random cascade of 6 stages of 4 weak learners (tests/support/cov_test_model.hpp)
// whose stages each pass 35% of the windows that reach them on the first frame (an assumed per-stage false
// positive rate of a trained cascade), until cascade-train cov ships a model: its timings show the cost of the
// family's steps, not a trained cascade's.
#include <cstdio>
#include <string>

#include "bench/gpu/bench_core.hpp"
#include "bench/gpu/bench_frames.hpp"
#include "bench/gpu/bench_util.hpp"
#include "bench/gpu/families.hpp"
#include "common/cov_cpu_detector.hpp"
#include "common/error.hpp"
#include "common/packed_model.hpp"
#include "gpu/cov_gpu_detector.hpp"
#include "tests/support/cov_test_model.hpp"

namespace cascade::bench {

namespace {

const char* const kUsage =
    "usage: cascade-bench cov --model XML|random[:SEED] [--data DIR] [--resolutions 1280x960] [--scales 1.05]\n"
    "  [--stride 8] [--configs exact/auto] (MODE/STRATEGY at --stride, or MODE/STRIDE/STRATEGY; strategy\n"
    "   none|global_atomic|shared_atomic|hybrid|prefix_sum|auto|all; strides are multiples of 4)\n"
    "  [--frames 100] [--warmup 10] [--parity-frames 2] [--kernel-frames 10] [--max-sources N] [--json FILE]\n"
    "  [--markdown FILE] [--date TEXT]\n";

class CovBench : public BenchFamily {
public:
    explicit CovBench(const CovCascade& model) : model_(model) {}

    Size window() const override { return model_.window; }
    bool opencv_available() const override { return false; }
    BenchRow time_opencv(const std::vector<cv::Mat>&, const std::string&, double, int) override {
        throw std::logic_error("cascade-bench cov: OpenCV has no covariance detector");
    }

    std::unique_ptr<gpu::GpuDetector> make_detector(const Config& config, double scale, bool time_kernels) override {
        return std::make_unique<gpu::CovGpuDetector>(model_, detector_options<gpu::CovGpuOptions>(config, scale, time_kernels));
    }

    std::vector<Detection> cpu_windows(const cv::Mat& frame, int stride, double scale) override {
        return reference_windows(model_, frame, stride, scale);
    }

    std::string detector_name(gpu::PyramidMode mode) const override {
        return mode == gpu::PyramidMode::exact ? "cov-exact" : "cov-texture";
    }
    std::string rule_text(int stride, double scale) const override {
        char buf[32];
        std::snprintf(buf, sizeof buf, "s%d x%.2f", stride, scale);
        return buf;
    }
    std::vector<gpu::KernelTime> kernel_rows(const std::vector<gpu::KernelTime>& kernels,
                                             double transfers_ms) const override {
        const std::vector<std::string> steps = {"resample", "cells + integral rows", "integral columns",
                                                "early stages", "late stages", "stages (one kernel)"};
        std::vector<double> ms(steps.size(), 0.0);
        for (const auto& k : kernels) {
            std::size_t step = 4;
            if (k.name == "resample") step = 0;
            else if (k.name == "cov_cells_rows") step = 1;
            else if (k.name == "cov_columns") step = 2;
            else if (k.name == "cascade_shared") step = 5;
            else if (k.name.size() >= 2 && k.name.compare(k.name.size() - 2, 2, "/0") == 0) step = 3;
            ms[step] += k.ms;
        }
        std::vector<gpu::KernelTime> out;
        for (std::size_t i = 0; i < steps.size(); ++i)
            if (ms[i] > 0) out.push_back({steps[i], static_cast<float>(ms[i])});
        out.push_back({"transfers", static_cast<float>(transfers_ms)});
        return out;
    }

private:
    CovCascade model_;
};

// The model of --model: a cov model file, or random[:SEED] calibrated on the first benchmark frame.
CovCascade bench_model(const BenchOptions& o) {
    if (o.model.rfind("random", 0) == 0) {
        const unsigned seed = o.model.size() > 7 ? static_cast<unsigned>(std::stoul(o.model.substr(7))) : 1u;
        const cv::Mat first = load_bench_frames(bench_frame_sources(o.data, 1), cv::Size(640, 480)).front();
        return test::random_cov_cascade(seed, 6, 4, view_of(first), {64, 128}, 0.35);
    }
    const PackedModel packed = load_packed_model(o.model);
    const auto* model = std::get_if<CovCascade>(&packed.model.cascade);
    if (!model) throw InputError(o.model, "not a covariance cascade");
    return *model;
}

}  // namespace

int run_cov_bench(int argc, char** argv) {
    BenchOptions defaults;
    defaults.resolutions = {"1280x960"};
    defaults.scales = {1.05};
    defaults.configs = {"exact/auto"};
    defaults.stride = kCovDefaultStride;
    defaults.model = "random";
    BenchOptions o = parse_bench_options(argc, argv, defaults, FamilyOptions::hog, kUsage);
    o.opencv = false;
    CovBench family(bench_model(o));
    return run_bench(o, family);
}

}  // namespace cascade::bench
