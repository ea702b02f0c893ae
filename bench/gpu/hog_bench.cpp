// cascade-bench hog: the GPU HoG detector (gpu/hog_gpu_detector.hpp) against OpenCV's CPU HOGDescriptor people
// detector (getDefaultPeopleDetector(): 64x128 window, the same stride and scale step, no padding, no grouping,
// all cores) on the same frames, per (resolution, scale step). Its kernel medians are summed into the issue's
// steps: resample, gradient + integral rows, integral columns, early stages (the first group), late stages,
// stages (one kernel: the shared-memory strategy), skip rule, and the transfers (upload + download).
#include "bench/gpu/families.hpp"

#include <cstdio>
#include <opencv2/objdetect.hpp>

#include "bench/gpu/bench_core.hpp"
#include "bench/gpu/bench_util.hpp"
#include "common/error.hpp"
#include "common/hog_cpu_detector.hpp"
#include "common/packed_model.hpp"
#include "gpu/hog_gpu_detector.hpp"

namespace cascade::bench {

namespace {

const char* const kUsage =
    "usage: cascade-bench hog [--data DIR] [--model XML] [--resolutions 640x480,1280x960,1920x1080]\n"
    "  [--scales 1.05,1.1,1.2] [--stride 8] [--configs exact/auto,texture/auto]  (MODE/STRATEGY at --stride, or\n"
    "   MODE/STRIDE/STRATEGY; strategy none|global_atomic|shared_atomic|hybrid|prefix_sum|auto|all; stride 0 =\n"
    "   OpenCV's cascade rule)\n"
    "  [--frames 100] [--warmup 10] [--opencv-frames 10] [--parity-frames 2] [--kernel-frames 10]\n"
    "  [--max-sources N] [--threads N] [--no-opencv] [--json FILE] [--markdown FILE] [--date TEXT]\n";

class HogBench : public BenchFamily {
public:
    HogBench(const BenchOptions& o, const HogCascade& model) : opencv_frames_(o.opencv_frames), model_(model) {
        hog_.setSVMDetector(cv::HOGDescriptor::getDefaultPeopleDetector());
    }

    Size window() const override { return model_.window; }
    bool opencv_available() const override { return true; }

    BenchRow time_opencv(const std::vector<cv::Mat>& frames, const std::string& resolution, double scale,
                         int stride) override {
        std::vector<cv::Rect> found;
        std::vector<double> weights;
        const cv::Size step(stride > 0 ? stride : 8, stride > 0 ? stride : 8);
        // hit threshold 0, no padding, group threshold 0: raw windows, like the GPU rows.
        return opencv_row(frames, opencv_frames_, resolution, "opencv-hog", rule_text(step.width, scale),
                          [&](const cv::Mat& f) {
                              hog_.detectMultiScale(f, found, weights, 0, step, cv::Size(), scale, 0, false);
                          });
    }

    std::unique_ptr<gpu::GpuDetector> make_detector(const Config& config, double scale, bool time_kernels) override {
        return std::make_unique<gpu::HogGpuDetector>(model_, detector_options<gpu::HogGpuOptions>(config, scale, time_kernels));
    }

    std::vector<Detection> cpu_windows(const cv::Mat& frame, int stride, double scale) override {
        return reference_windows(model_, frame, stride, scale);
    }

    std::string detector_name(gpu::PyramidMode mode) const override {
        return mode == gpu::PyramidMode::exact ? "hog-exact" : "hog-texture";
    }
    // "s8 x1.05": stride 8 (or "cv" for OpenCV's cascade rule), scale step 1.05.
    std::string rule_text(int stride, double scale) const override {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%s x%.2f", stride == 0 ? "cv" : ("s" + std::to_string(stride)).c_str(), scale);
        return buf;
    }
    std::vector<gpu::KernelTime> kernel_rows(const std::vector<gpu::KernelTime>& kernels,
                                             double transfers_ms) const override;

private:
    int opencv_frames_;
    HogCascade model_;
    cv::HOGDescriptor hog_;  // 64x128 window, 16x16 blocks, 8x8 cells, 9 bins: Dalal and Triggs
};

std::vector<gpu::KernelTime> HogBench::kernel_rows(const std::vector<gpu::KernelTime>& kernels,
                                                   double transfers_ms) const {
    const std::vector<std::string> steps = {"resample",     "gradient + integral rows", "integral columns",
                                            "early stages", "late stages",              "stages (one kernel)",
                                            "skip rule"};
    std::vector<double> ms(steps.size(), 0.0);
    auto ends_with = [](const std::string& s, const std::string& tail) {
        return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
    };
    for (const auto& k : kernels) {
        std::size_t step = 6;
        if (k.name == "resample") step = 0;
        else if (k.name == "gradient_integral_rows") step = 1;
        else if (k.name == "integral_columns") step = 2;
        else if (k.name == "cascade_shared") step = 5;
        else if (k.name.rfind("cascade_", 0) == 0) step = ends_with(k.name, "/0") ? 3 : 4;
        ms[step] += k.ms;
    }
    std::vector<gpu::KernelTime> out;
    for (std::size_t i = 0; i < steps.size(); ++i)
        if (ms[i] > 0) out.push_back({steps[i], static_cast<float>(ms[i])});
    out.push_back({"transfers", static_cast<float>(transfers_ms)});
    return out;
}

}  // namespace

BenchOptions hog_defaults() {
    BenchOptions defaults;
    defaults.resolutions = {"640x480", "1280x960", "1920x1080"};
    defaults.scales = {1.05, 1.1, 1.2};
    defaults.configs = {"exact/auto", "texture/auto"};
    defaults.stride = kHogSparseStride;
    return defaults;
}

std::unique_ptr<BenchFamily> make_hog_family(BenchOptions& o) {
    if (o.model.empty()) o.model = o.data + "/models/pedestrian_hog.xml";
    const PackedModel packed = load_packed_model(o.model);
    const auto* model = std::get_if<HogCascade>(&packed.model.cascade);
    if (!model) throw InputError(o.model, "not a HoG cascade");
    return std::make_unique<HogBench>(o, *model);
}

int run_hog_bench(int argc, char** argv) {
    BenchOptions o = parse_bench_options(argc, argv, hog_defaults(), FamilyOptions::hog, kUsage);
    const auto family = make_hog_family(o);
    return run_bench(o, *family);
}

}  // namespace cascade::bench
