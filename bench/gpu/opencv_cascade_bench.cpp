// cascade-bench's families of OpenCV's cascades: the GPU LBP detector (gpu/lbp_gpu_detector.hpp; cascade-bench)
// and the GPU Haar detector (gpu/haar_gpu_detector.hpp; cascade-bench haar), each against OpenCV's CPU
// CascadeClassifier with the same model (its own scan rule, raw windows, all cores) on the same frames.
#include "bench/gpu/families.hpp"

#include <iostream>
#include <type_traits>
#include <opencv2/core/ocl.hpp>
#include <opencv2/objdetect.hpp>

#include "bench/gpu/bench_core.hpp"
#include "bench/gpu/bench_util.hpp"
#include "common/error.hpp"
#include "common/haar_cpu_detector.hpp"
#include "common/lbp_cpu_detector.hpp"
#include "common/packed_model.hpp"
#include "gpu/haar_gpu_detector.hpp"
#include "gpu/lbp_gpu_detector.hpp"

namespace cascade::bench {

namespace {

const char* const kUsage =
    "usage: cascade-bench [--data DIR] [--model XML] [--resolutions 720x480,1280x720,1920x1080]\n"
    "  [--configs exact/1/all,texture/1/auto,exact/0/auto]  (MODE/STRIDE/STRATEGY; stride 0 = OpenCV's rule;\n"
    "   strategy none|global_atomic|shared_atomic|hybrid|prefix_sum|auto|all)\n"
    "  [--points 3,7,11,20,30,45,65|none|stages]  (compaction points in weak learners, or every stage boundary)\n"
    "  [--no-tiles] [--carveout PERCENT] [--warp-tail N]  (tuning: integral tiles in shared memory; L1/shared\n"
    "   split; survivors per block below which one warp per window finishes the cascade)\n"
    "  [--scale-factor 1.1] [--min-size 24] [--frames 200] [--warmup 20] [--opencv-frames 20]\n"
    "  [--parity-frames 2] [--kernel-frames 10] [--max-sources N] [--threads N] [--no-opencv]\n"
    "  [--json FILE] [--markdown FILE] [--date TEXT]\n"
    "       cascade-bench haar [...]  (the same for OpenCV's Haar cascades: --model haarcascade_*.xml, default\n"
    "   frontal face; configs exact/1/all,exact/0/all; --min-size 0 = the model's window; no LBP tuning)\n"
    "       cascade-bench hog [...]  (the HoG detector against OpenCV's HOGDescriptor; hog --help)\n";

// An LBP or a Haar cascade (Cascade), which cv::CascadeClassifier loads too.
template <class Cascade>
class OpenCvCascadeBench : public BenchFamily {
public:
    OpenCvCascadeBench(const BenchOptions& o, const PackedModel& packed)
        : o_(o), model_(std::get<Cascade>(packed.model.cascade)), stumps_(packed.stumps) {
        cv::ocl::setUseOpenCL(false);
        opencv_ = o.opencv && classifier_.load(o.model);
        if (o.opencv && !opencv_) std::cout << "note: OpenCV cannot load " << o.model << ": no OpenCV rows\n";
    }

    Size window() const override { return model_.window; }
    bool opencv_available() const override { return opencv_; }

    BenchRow time_opencv(const std::vector<cv::Mat>& frames, const std::string& resolution, double scale,
                         int) override {
        std::vector<cv::Rect> found;
        const cv::Size min_size(o_.min_size, o_.min_size);
        return opencv_row(frames, o_.opencv_frames, resolution, "opencv-cpu", "opencv", [&](const cv::Mat& f) {
            classifier_.detectMultiScale(f, found, scale, 0, 0, min_size);
        });
    }

    std::unique_ptr<gpu::GpuDetector> make_detector(const Config& config, double scale, bool time_kernels) override {
        std::conditional_t<std::is_same_v<Cascade, LbpCascade>, gpu::LbpGpuOptions, gpu::HaarGpuOptions> options;
        options.mode = config.mode;
        options.compaction = config.compaction;
        options.rule.stride = config.stride;
        options.pyramid = pyramid(scale);
        options.compaction_points = o_.points;
        if (o_.every_stage) {
            options.compaction_points.clear();
            for (std::size_t s = 0; s + 1 < model_.stages.size(); ++s)
                options.compaction_points.push_back(model_.stages[s].first + model_.stages[s].count);
        }
        options.time_kernels = time_kernels;
        if constexpr (std::is_same_v<Cascade, HaarCascade>) {
            return std::make_unique<gpu::HaarGpuDetector>(model_, options);
        } else {
            options.integral_tiles = o_.tiles;
            options.shared_carveout = o_.carveout;
            options.warp_tail = o_.warp_tail;
            return std::make_unique<gpu::LbpGpuDetector>(model_, stumps_, options);
        }
    }

    std::vector<Detection> cpu_windows(const cv::Mat& frame, int stride, double scale) override {
        ScanParams params;
        params.pyramid = pyramid(scale);
        params.rule.stride = stride;
        return sorted(detect_windows(model_, view_of(frame), params));
    }

    std::string detector_name(gpu::PyramidMode mode) const override {
        if constexpr (std::is_same_v<Cascade, HaarCascade>) return "haar-exact";
        return mode == gpu::PyramidMode::exact ? "gpu-exact" : "gpu-texture";
    }
    std::string rule_text(int stride, double) const override {
        return stride == 0 ? "opencv" : "stride " + std::to_string(stride);
    }
    std::vector<gpu::KernelTime> kernel_rows(const std::vector<gpu::KernelTime>& medians, double) const override {
        return medians;
    }

private:
    PyramidParams pyramid(double scale) const {
        PyramidParams p;
        p.scale_factor = scale;
        p.min_object = {o_.min_size, o_.min_size};
        return p;
    }

    BenchOptions o_;
    Cascade model_;
    std::vector<std::uint32_t> stumps_;
    cv::CascadeClassifier classifier_;
    bool opencv_ = false;
};

}  // namespace

std::unique_ptr<BenchFamily> cascade_family(const BenchOptions& o, const PackedModel& packed) {
    if (std::holds_alternative<LbpCascade>(packed.model.cascade))
        return std::make_unique<OpenCvCascadeBench<LbpCascade>>(o, packed);
    if (std::holds_alternative<HaarCascade>(packed.model.cascade))
        return std::make_unique<OpenCvCascadeBench<HaarCascade>>(o, packed);
    throw InputError(o.model, "not an LBP or Haar cascade");
}

BenchOptions lbp_defaults() {
    BenchOptions defaults;
    defaults.resolutions = {"720x480", "1280x720", "1920x1080"};
    defaults.scales = {1.1};
    defaults.configs = {"exact/1/all", "texture/1/auto", "exact/0/auto"};
    defaults.frames = 200;
    defaults.warmup = 20;
    defaults.opencv_frames = 20;
    defaults.points = gpu::LbpGpuOptions{}.compaction_points;
    defaults.warp_tail = gpu::LbpGpuOptions{}.warp_tail;
    defaults.min_size = 24;
    return defaults;
}

BenchOptions haar_defaults() {
    BenchOptions defaults;
    defaults.resolutions = {"720x480", "1280x720", "1920x1080"};
    defaults.scales = {1.1};
    defaults.configs = {"exact/1/all", "exact/0/all"};
    defaults.frames = 100;
    defaults.warmup = 10;
    defaults.opencv_frames = 10;
    defaults.points = gpu::HaarGpuOptions{}.compaction_points;
    return defaults;
}

namespace {

// The family of `o.model` (default: models/<default_model> of the data folder), which must be a `Cascade`.
template <class Cascade>
std::unique_ptr<BenchFamily> model_family(BenchOptions& o, const char* default_model, const char* kind) {
    if (o.model.empty()) o.model = o.data + "/models/" + default_model;
    const PackedModel packed = load_packed_model(o.model);
    if (!std::holds_alternative<Cascade>(packed.model.cascade)) throw InputError(o.model, std::string("not ") + kind);
    return cascade_family(o, packed);
}

}  // namespace

int run_lbp_bench(int argc, char** argv) {
    BenchOptions o = parse_bench_options(argc, argv, lbp_defaults(), FamilyOptions::lbp, kUsage);
    return run_bench(o, *make_lbp_family(o));
}

int run_haar_bench(int argc, char** argv) {
    BenchOptions o = parse_bench_options(argc, argv, haar_defaults(), FamilyOptions::lbp, kUsage);
    return run_bench(o, *make_haar_family(o));
}

std::unique_ptr<BenchFamily> make_lbp_family(BenchOptions& o) {
    return model_family<LbpCascade>(o, "lbpcascade_frontalface.xml", "an LBP cascade");
}

std::unique_ptr<BenchFamily> make_haar_family(BenchOptions& o) {
    return model_family<HaarCascade>(o, "haarcascade_frontalface_default.xml", "a Haar cascade");
}

}  // namespace cascade::bench
