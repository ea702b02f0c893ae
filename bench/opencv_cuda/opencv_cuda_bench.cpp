// cascade-bench-opencv-cuda: OpenCV 4.6's own CUDA cascade detector (cv::cuda::CascadeClassifier, module
// cudaobjdetect, built for sm_90 by tools/opencv-cuda/build.sh) against this toolkit's GPU detector, on the same
// frames and card. It is cascade-bench (bench/gpu/bench_core.hpp, the LBP or Haar family of the model) with
// the OpenCV row taken by OpenCV CUDA instead of OpenCV's CPU detector, so every row's ratio column is OpenCV
// CUDA's median over the row's median. Built only when CMake is given CASCADE_OPENCV_CUDA_DIR.
//
// OpenCV CUDA's settings, as close to ours as its API allows: the same scale factor; minNeighbors 3, and ours
// grouped by group_detections (cv::groupRectangles' rule, eps 0.2) with 3; its minimum object size left at
// its default, the cascade window (its LBP pyramid skips every level whose window is not larger than a minimum
// set explicitly, so 24x24 would drop the 24-pixel level that ours keeps); no maximum size. What differs, by
// its design: LBP levels are resized by cuda::resize (bilinear on the GPU, not OpenCV's CPU resize that our
// exact mode reproduces), scanned with step 2 below scale 2 and 1 above (our stride-0 "opencv" rule) and
// grouped by connected components on the GPU (groupRectangles' similarity, eps 0.2). The Haar detector
// (cudalegacy's NCV) scans integer scales only (1, 2, 3, ...: the integer parts of the powers of the scale
// factor), each on the integral image decimated by that integer, at every position, and groups on the host.
// Its row is timed from a frame already on the device to the grouped rectangles on the host, with
// cudaDeviceSynchronize on both sides; its parity column says how many of its grouped rectangles ours
// reproduces on every frame of the set: our grouped detections (exact mode, OpenCV's rule), by decreasing
// score, each take the still unmatched OpenCV CUDA rectangle they overlap most if the IoU is >= 0.5
// (bench/eval/box_matching.hpp, one match per rectangle).
#include <cuda_runtime_api.h>

#include <chrono>
#include <iostream>
#include <opencv2/core/cuda.hpp>
#include <opencv2/cudaobjdetect.hpp>

#include "bench/eval/box_matching.hpp"
#include "bench/gpu/bench_core.hpp"
#include "bench/gpu/bench_util.hpp"
#include "bench/gpu/families.hpp"
#include "cli/tool_main.hpp"
#include "common/grouping.hpp"
#include "common/packed_model.hpp"
#include "gpu/cuda_check.hpp"
#include "gpu/haar_gpu_detector.hpp"
#include "gpu/lbp_gpu_detector.hpp"

namespace cascade::bench {

namespace {

const char* const kUsage =
    "usage: cascade-bench-opencv-cuda [--data DIR] [--model XML] [--resolutions 720x480,1280x720,1920x1080]\n"
    "  [--configs exact/0/auto,texture/0/auto,exact/1/auto (Haar: exact only)] [--scale-factor 1.1]\n"
    "  [--min-size 0] [--frames 100] [--warmup 20] [--opencv-frames 100] [--parity-frames 2] [--kernel-frames 10]\n"
    "  [--max-sources N] [--no-opencv]\n"
    "  [--json FILE] [--markdown FILE] [--date TEXT]\n"
    "OpenCV 4.6's cv::cuda::CascadeClassifier (the opencv-cuda row, minNeighbors 3) against this toolkit's GPU\n"
    "detector (the other rows, cascade-bench's) on the same frames; --model: OpenCV's LBP cascade (default\n"
    "models/lbpcascade_frontalface.xml under --data) or a Haar cascade where OpenCV was built with cudalegacy.\n"
    "The opencv-cuda row's parity column: how many of its grouped rectangles ours reproduces (IoU >= 0.5).\n";

constexpr int kMinNeighbors = 3;
constexpr int kMaxObjects = 10000;  // grouped rectangles OpenCV CUDA may return per frame (its default: 100)

void synchronize() { CASCADE_CUDA_CHECK(cudaDeviceSynchronize()); }

std::vector<Rect> to_rects(const std::vector<cv::Rect>& found) {
    std::vector<Rect> out;
    for (const cv::Rect& r : found) out.push_back({r.x, r.y, r.width, r.height});
    return out;
}

// Our family of the model (its GPU rows and CPU reference) with OpenCV CUDA's detector as the OpenCV row.
class OpenCvCudaBench : public BenchFamily {
public:
    OpenCvCudaBench(const BenchOptions& o, const PackedModel& packed)
        : o_(o), ours_(cascade_family(without_opencv(o), packed)) {
        if (!o.opencv || !gpu::cuda_device_available()) return;  // (run_bench says SKIP without a device)
        try {
            classifier_ = cv::cuda::CascadeClassifier::create(o.model);
        } catch (const cv::Exception& e) {
            std::cout << "note: OpenCV CUDA cannot load " << o.model << ": " << e.what() << ": no opencv-cuda row\n";
        }
    }

    Size window() const override { return ours_->window(); }
    bool opencv_available() const override { return !classifier_.empty(); }

    BenchRow time_opencv(const std::vector<cv::Mat>& frames, const std::string& resolution, double scale,
                         int) override {
        classifier_->setScaleFactor(scale);
        classifier_->setMinNeighbors(kMinNeighbors);
        classifier_->setMaxNumObjects(kMaxObjects);
        classifier_->setMaxObjectSize(cv::Size());  // the frame's size (it keeps the first frame's otherwise)
        std::vector<cv::cuda::GpuMat> device(frames.size());
        for (std::size_t i = 0; i < frames.size(); ++i) device[i].upload(frames[i]);
        for (int i = 0; i < o_.warmup; ++i) detect(device[i % device.size()]);
        std::vector<double> ms;
        for (int i = 0; i < o_.opencv_frames; ++i) {
            synchronize();
            const auto start = std::chrono::steady_clock::now();
            detect(device[i % device.size()]);
            ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
        }
        BenchRow r;
        r.resolution = resolution;
        r.detector = "opencv-cuda";
        r.strategy = "-";
        r.rule = "opencv";
        r.frames = o_.opencv_frames;
        r.median_ms = r.median_call_ms = percentile(ms, 0.5);
        r.p90_ms = percentile(ms, 0.9);
        r.speedup = 1.0;
        r.parity = reproduced(frames, device, scale);
        std::cerr << "  opencv-cuda: " << r.median_ms << " ms, ours reproduces " << r.parity << "\n";
        return r;
    }

    std::unique_ptr<gpu::GpuDetector> make_detector(const Config& config, double scale, bool time_kernels) override {
        return ours_->make_detector(config, scale, time_kernels);
    }
    std::vector<Detection> cpu_windows(const cv::Mat& frame, int stride, double scale) override {
        return ours_->cpu_windows(frame, stride, scale);
    }
    std::string detector_name(gpu::PyramidMode mode) const override { return ours_->detector_name(mode); }
    std::string rule_text(int stride, double scale) const override { return ours_->rule_text(stride, scale); }
    std::vector<gpu::KernelTime> kernel_rows(const std::vector<gpu::KernelTime>& medians,
                                             double transfers_ms) const override {
        return ours_->kernel_rows(medians, transfers_ms);
    }

private:
    static BenchOptions without_opencv(BenchOptions o) {
        o.opencv = false;  // our family's OpenCV CPU classifier is not used here
        return o;
    }

    // OpenCV CUDA's grouped rectangles of one frame on the device, on the host when it returns.
    std::vector<cv::Rect> detect(const cv::cuda::GpuMat& frame) {
        classifier_->detectMultiScale(frame, objects_);
        std::vector<cv::Rect> found;
        classifier_->convert(objects_, found);
        synchronize();
        return found;
    }

    // "H/N (ours M)": of OpenCV CUDA's N grouped rectangles over every frame, the H ours reproduces; ours
    // found M in all.
    std::string reproduced(const std::vector<cv::Mat>& frames, const std::vector<cv::cuda::GpuMat>& device,
                           double scale) {
        const auto d = ours_->make_detector({gpu::PyramidMode::exact, 0, gpu::Compaction::automatic}, scale, false);
        std::size_t hits = 0, theirs = 0, ours = 0;
        for (std::size_t i = 0; i < frames.size(); ++i) {
            const std::vector<Rect> truth = to_rects(detect(device[i]));
            const std::vector<Detection> grouped = group_detections(d->detect(view_of(frames[i])), kMinNeighbors);
            hits += eval::match_detections(grouped, truth, 0.5).hit_scores.size();
            theirs += truth.size();
            ours += grouped.size();
        }
        return std::to_string(hits) + "/" + std::to_string(theirs) + " (ours " + std::to_string(ours) + ")";
    }

    BenchOptions o_;
    std::unique_ptr<BenchFamily> ours_;
    cv::Ptr<cv::cuda::CascadeClassifier> classifier_;
    cv::cuda::GpuMat objects_;
};

int run_opencv_cuda_bench(int argc, char** argv) {
    BenchOptions defaults;
    defaults.resolutions = {"720x480", "1280x720", "1920x1080"};
    defaults.scales = {1.1};
    defaults.configs = {"exact/0/auto", "texture/0/auto", "exact/1/auto"};
    defaults.frames = 100;
    defaults.warmup = 20;
    defaults.opencv_frames = 100;
    defaults.points = gpu::LbpGpuOptions{}.compaction_points;
    defaults.warp_tail = gpu::LbpGpuOptions{}.warp_tail;
    BenchOptions o = parse_bench_options(argc, argv, defaults, FamilyOptions::lbp, kUsage);
    if (o.model.empty()) o.model = o.data + "/models/lbpcascade_frontalface.xml";
    const PackedModel packed = load_packed_model(o.model);
    const bool haar = std::holds_alternative<HaarCascade>(packed.model.cascade);
    if (haar && o.points == defaults.points) o.points = gpu::HaarGpuOptions{}.compaction_points;  // Haar's default
    if (haar && o.configs == defaults.configs) o.configs = {"exact/0/auto", "exact/1/auto"};  // no texture mode
    OpenCvCudaBench family(o, packed);
    return run_bench(o, family);
}

}  // namespace

}  // namespace cascade::bench

int main(int argc, char** argv) {
    return cascade::cli::run_tool("cascade-bench-opencv-cuda",
                                  [&] { return cascade::bench::run_opencv_cuda_bench(argc, argv); });
}
