// cascade-bench keypoints: the GPU FOAGDD detector (gpu/foagdd_gpu.hpp) against OpenCV's cv::cornerHarris and
// cv::goodFeaturesToTrack (all cores) and the FOAGDD CPU reference (all cores) on the same real frames
// (bench-frames/*.pgm, resized to each resolution), with the 2023 thesis's Tesla T4 times beside.
// GPU: the median of whole calls (upload of the grey frame, every kernel, download of the corners; wall clock,
// after warm-up): latency; the same with the frame already in the detector's pinned staging (a decoder writing
// there: no host copy); pipelined: wall time per frame through two detectors in turn, one frame's host copy and
// upload overlapping the other's kernels: throughput, not latency; the median of each stage (CUDA events); the corners of every frame (their sum) compared with
// the CPU reference's (same pixels, measures bit for bit); and how far the responses kernel is from the card's FP32
// FMA issue rate and the measure kernel from its FP64 rate.
#include "bench/gpu/families.hpp"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <opencv2/imgproc.hpp>

#include "bench/gpu/bench_frames.hpp"
#include "bench/gpu/bench_util.hpp"
#include "bench/gpu/pgm.hpp"
#include "cli/usage_error.hpp"
#include "cli/values.hpp"
#include "common/error.hpp"
#include "common/foagdd_pixel.hpp"
#include "gpu/cuda_check.hpp"
#include "gpu/foagdd_gpu.hpp"

namespace cascade::bench {

namespace {

const char* const kUsage =
    "usage: cascade-bench keypoints [--data DIR] [--resolutions 512x512,640x480,1280x720,1920x1080]\n"
    "  [--frames 4] [--repeats 50] [--threads N] [--no-opencv] [--no-cpu] [--markdown FILE]\n";

struct KeypointBenchOptions {
    std::string data = "gpu-pack/data", markdown;
    std::vector<Size> resolutions{{512, 512}, {640, 480}, {1280, 720}, {1920, 1080}};
    int frames = 4, repeats = 50, threads = 0;
    bool opencv = true, cpu = true;
};

struct Row {
    std::string resolution;
    double call_ms = 0, staged_ms = 0, pipelined_ms = 0, harris_ms = 0, gftt_ms = 0, cpu_ms = 0, t4_ms = 0;
    std::map<std::string, double> stages;
    std::size_t corners = 0;
    std::string parity = "-";
    double fp32_percent = 0, fp64_percent = 0, floor_ms = 0;
};

KeypointBenchOptions parse(int argc, char** argv) {
    KeypointBenchOptions o;
    for (int i = 1; i < argc; ++i) {
        const std::string key = argv[i];
        if (key == "--no-opencv" || key == "--no-cpu") {
            (key == "--no-cpu" ? o.cpu : o.opencv) = false;
            continue;
        }
        if (i + 1 >= argc) throw cli::UsageError(key, std::string("needs a value\n") + kUsage);
        const std::string value = argv[++i];
        if (key == "--data") o.data = value;
        else if (key == "--markdown") o.markdown = value;
        else if (key == "--frames") o.frames = cli::parse_int(key, value);
        else if (key == "--repeats") o.repeats = cli::parse_int(key, value);
        else if (key == "--threads") o.threads = cli::parse_int(key, value);
        else if (key == "--resolutions") {
            o.resolutions.clear();
            for (const std::string& item : split(value, ',')) o.resolutions.push_back(cli::parse_size(key, item));
        } else throw cli::UsageError(key, std::string("unknown option\n") + kUsage);
    }
    for (const Size r : o.resolutions)
        if (r.width < kFoagddMinSide || r.height < kFoagddMinSide)
            throw cli::UsageError("--resolutions", cli::size_text(r) + " is below 16x16");
    if (o.frames < 1) throw cli::UsageError("--frames", "must be >= 1");
    if (o.repeats < 1) throw cli::UsageError("--repeats", "must be >= 1");
    cli::check_threads("--threads", o.threads);
    return o;
}

// The thesis's Table 2 (GPU total, Tesla T4 with 2 vCPUs), where it has the resolution.
double thesis_t4_ms(const std::string& resolution) {
    const std::map<std::string, double> t4{{"512x512", 20.7}, {"640x480", 24.0}, {"1280x720", 62.7},
                                           {"1600x1200", 125.3}, {"1920x1080", 132.1}};
    const auto it = t4.find(resolution);
    return it == t4.end() ? 0.0 : it->second;
}

template <class F>
double median_ms(int count, F f) {
    std::vector<double> ms;
    for (int i = 0; i < count; ++i) {
        const auto start = std::chrono::steady_clock::now();
        f(i);
        ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    }
    return percentile(ms, 0.5);
}

bool same_corners(const std::vector<Keypoint>& a, const std::vector<Keypoint>& b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](const Keypoint& p, const Keypoint& q) {
               return p.x == q.x && p.y == q.y && std::memcmp(&p.measure, &q.measure, sizeof(double)) == 0;
           });
}

// The card's FMA issue rates (Hopper: 128 FP32 and 64 FP64 lanes per SM and clock), in FMA per second.
void card_rates(double& fp32, double& fp64) {
    int sms = 0, clock_khz = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0);
    fp32 = 128.0 * sms * clock_khz * 1e3;
    fp64 = 64.0 * sms * clock_khz * 1e3;
}

// Median ms of detect() on frames already in the detector's staging (copied there before each timed call).
double staged_ms(gpu::FoagddGpu& detector, const std::vector<cv::Mat>& frames, int repeats) {
    const cv::Size s = frames[0].size();
    cv::Mat staged(s, CV_8UC1, detector.staging({s.width, s.height}));
    std::vector<double> ms;
    for (int i = 0; i < repeats; ++i) {
        frames[static_cast<std::size_t>(i) % frames.size()].copyTo(staged);
        ms.push_back(median_ms(1, [&](int) { detector.detect(view_of(staged)); }));
    }
    return percentile(ms, 0.5);
}

// Wall time per frame of `repeats` frames through two detectors in turn (after a warm-up call each).
double pipelined_ms(const std::vector<cv::Mat>& frames, int repeats) {
    gpu::FoagddGpu a, b;
    gpu::FoagddGpu* detectors[2] = {&a, &b};
    const auto frame = [&](int i) { return view_of(frames[static_cast<std::size_t>(i) % frames.size()]); };
    for (gpu::FoagddGpu* d : detectors) d->detect(frame(0));
    const double total = median_ms(1, [&](int) {
        for (int f = 0; f <= repeats; ++f) {
            if (f < repeats) detectors[f % 2]->start(frame(f));
            if (f > 0) detectors[(f - 1) % 2]->finish();
        }
    });
    return total / repeats;
}

void time_gpu(const KeypointBenchOptions& o, const std::vector<cv::Mat>& frames, Row& r) {
    gpu::FoagddGpu detector;
    const auto frame = [&](int i) { return view_of(frames[static_cast<std::size_t>(i) % frames.size()]); };
    for (int i = 0; i < 3; ++i) detector.detect(frame(i));
    r.call_ms = median_ms(o.repeats, [&](int i) { detector.detect(frame(i)); });
    r.staged_ms = staged_ms(detector, frames, o.repeats);
    r.pipelined_ms = pipelined_ms(frames, o.repeats);
    std::map<std::string, std::vector<double>> stages;
    for (int i = 0; i < o.repeats; ++i) {
        detector.detect(frame(i), true);
        for (const auto& k : detector.kernel_times()) stages[k.name].push_back(k.ms);
    }
    for (const auto& [name, ms] : stages) r.stages[name] = percentile(ms, 0.5);
    // Every frame once: the corners, and (unless --no-cpu) the CPU reference's on it.
    int differ = 0;
    std::vector<double> cpu_ms;
    for (std::size_t f = 0; f < frames.size(); ++f) {
        const std::vector<Keypoint> gpu = detector.detect(frame(int(f)));
        r.corners += gpu.size();
        if (!o.cpu) continue;
        std::vector<Keypoint> cpu;
        cpu_ms.push_back(median_ms(1, [&](int) { cpu = foagdd_keypoints(frame(int(f)), kFoagddThreshold, o.threads); }));
        differ += !same_corners(cpu, gpu);
    }
    if (o.cpu) {
        r.cpu_ms = percentile(cpu_ms, 0.5);
        r.parity = differ ? std::to_string(differ) + " of " + std::to_string(frames.size()) + " DIFFER" : "equal";
    }
    double fp32 = 0, fp64 = 0;
    card_rates(fp32, fp64);
    const cv::Size s = frames[0].size();
    const double planes = double(s.width + 6) * (s.height + 6), pixels = double(s.width) * s.height;
    const double fmas = planes * kFoagddOrientations * 19 * 19;
    // The tensor's 36 entries by row sums (a product, 6 adds for the row sums over 3, 5 and 7 pixels, 6 for the
    // disc's 7 rows), then the elimination.
    const double dfmas = pixels * (36 * 13 + 120);
    r.fp32_percent = 100 * fmas / (r.stages["responses"] * 1e-3) / fp32;
    r.fp64_percent = 100 * dfmas / (r.stages["measure"] * 1e-3) / fp64;
    r.floor_ms = 1e3 * (fmas / fp32 + dfmas / fp64);
}

void time_opencv(const KeypointBenchOptions& o, const std::vector<cv::Mat>& frames, Row& r) {
    cv::Mat response, corners;
    const auto frame = [&](int i) { return frames[static_cast<std::size_t>(i) % frames.size()]; };
    cv::cornerHarris(frame(0), response, 2, 3, 0.04);
    r.harris_ms = median_ms(o.repeats, [&](int i) { cv::cornerHarris(frame(i), response, 2, 3, 0.04); });
    r.gftt_ms = median_ms(o.repeats, [&](int i) { cv::goodFeaturesToTrack(frame(i), corners, 0, 0.01, 5); });
}

std::string markdown(const std::vector<Row>& rows) {
    std::string out = "| resolution | GPU call ms | staged ms | pipelined ms/frame | responses | measure | candidates | scales | upload + download | "
                      "corners (all frames) | CPU == GPU | cornerHarris ms | goodFeaturesToTrack ms | CPU FOAGDD ms | thesis T4 ms | "
                      "% FP32 (responses) | % FP64 (measure) | FMA floor ms |\n"
                      "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
    char line[480];
    for (const Row& r : rows) {
        const auto stage = [&](const char* name) { return r.stages.count(name) ? r.stages.at(name) : 0.0; };
        std::snprintf(line, sizeof line,
                      "| %s | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %zu | %s | %.2f | %.2f | %.0f | %s | %.0f | "
                      "%.0f | %.3f |\n",
                      r.resolution.c_str(), r.call_ms, r.staged_ms, r.pipelined_ms, stage("responses"), stage("measure"), stage("candidates"),
                      stage("scales"), stage("upload") + stage("download"), r.corners, r.parity.c_str(), r.harris_ms,
                      r.gftt_ms, r.cpu_ms, r.t4_ms > 0 ? std::to_string(r.t4_ms).substr(0, 5).c_str() : "-",
                      r.fp32_percent, r.fp64_percent, r.floor_ms);
        out += line;
    }
    return out;
}

}  // namespace

int run_keypoints_bench(int argc, char** argv) {
    const KeypointBenchOptions o = parse(argc, argv);
    if (!gpu::cuda_device_available()) throw InputError("cascade-bench keypoints", "no CUDA device");
    cv::setNumThreads(o.threads > 0 ? o.threads : -1);
    std::vector<std::string> sources = list_pgm(o.data + "/bench-frames");
    if (sources.empty()) throw InputError(o.data + "/bench-frames", "no frames");
    sources.resize(std::min(sources.size(), static_cast<std::size_t>(o.frames)));
    std::vector<Row> rows;
    for (const Size res : o.resolutions) {
        const std::vector<cv::Mat> frames = load_bench_frames(sources, {res.width, res.height});
        Row r;
        r.resolution = cli::size_text(res);
        r.t4_ms = thesis_t4_ms(r.resolution);
        time_gpu(o, frames, r);
        if (o.opencv) time_opencv(o, frames, r);
        rows.push_back(r);
        std::cerr << markdown({r}).substr(markdown({}).size());
    }
    const std::string text = "cascade-bench keypoints, " + today() + ", " + device_name() + ", OpenCV on " +
                             std::to_string(cv::getNumThreads()) + " threads, " + std::to_string(sources.size()) +
                             " frames, " + std::to_string(o.repeats) + " timed calls per row\n\n" + markdown(rows);
    std::cout << text;
    if (!o.markdown.empty()) std::ofstream(o.markdown) << text;
    return 0;
}

}  // namespace cascade::bench
