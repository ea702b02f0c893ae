// cascade-bench covariance: region covariance search on the GPU (gpu/covariance_gpu.hpp) against this toolkit's
// CPU reference (common/covariance_integrals + match/covariance_map, all cores) on the 2019 thesis's workload:
// 2048x1152 colour frames (three real bench frames as the B, G, R planes), a 400x400 target cut from the first
// frame's centre, 8 window sizes from 0.25 to 2 times the target (geometric), windows --step pixels apart.
// GPU, medians over --frames (host clock around each call; kernels by CUDA events):
//   maps:      search(): the frame's planes from pageable memory, every window's distance, all maps downloaded;
//   best:      best(): the same planes, only the best window downloaded (one thread copies them into staging);
//   staged:    best() of a frame already in the matcher's pinned staging (no host copy at all);
//   split:     best() of a decoded frame (interleaved BGR and its grey image, as cascade-match has it), split
//              straight into staging on OpenCV's threads strip by strip as best() uploads it (a StagingFill of
//              match/cv_planes.hpp's split_rows_into: each strip's upload overlaps the next strip's split):
//              cascade-match's per-frame latency from a decoded frame to its best window;
//   pipelined: wall time per frame over --frames frames through two matchers in turn, each frame split into its
//              matcher's staging (as in split) while the other matcher's frame is searched: throughput, not latency;
//   integrals / windows: the kernels of a best() call (windows: the distances and the best window); TB/s: the
//              integral images' bytes (written once) over their time.
// CPU: median over --cpu-frames. "same best": the GPU's best() and the CPU's best window agree on every CPU frame,
// and best() of the split frame equals best() of the pageable planes on every frame.
#include "bench/gpu/families.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <opencv2/imgproc.hpp>
#include <thread>

#include "bench/gpu/bench_frames.hpp"
#include "bench/gpu/bench_util.hpp"
#include "bench/gpu/pgm.hpp"
#include "cli/usage_error.hpp"
#include "cli/values.hpp"
#include "common/covariance_integrals.hpp"
#include "common/error.hpp"
#include "gpu/covariance_gpu.hpp"
#include "gpu/cuda_check.hpp"
#include "match/covariance_map.hpp"
#include "match/cv_planes.hpp"

namespace cascade::bench {

namespace {

const char* const kUsage =
    "usage: cascade-bench covariance [--data DIR] [--resolution 2048x1152] [--target 400] [--step 8]\n"
    "  [--frames 10] [--cpu-frames 2] [--threads N] [--markdown FILE]\n";

struct CovarianceBenchOptions {
    std::string data = "gpu-pack/data", markdown;
    Size resolution{2048, 1152};
    int target = 400, step = 8, frames = 10, cpu_frames = 2, threads = 0;
};

CovarianceBenchOptions parse(int argc, char** argv) {
    CovarianceBenchOptions o;
    for (int i = 1; i < argc; ++i) {
        const std::string key = argv[i];
        if (i + 1 >= argc) throw cli::UsageError(key, std::string("needs a value\n") + kUsage);
        const std::string value = argv[++i];
        if (key == "--data") o.data = value;
        else if (key == "--markdown") o.markdown = value;
        else if (key == "--resolution") o.resolution = cli::parse_size(key, value);
        else if (key == "--target") o.target = cli::parse_int(key, value);
        else if (key == "--step") o.step = cli::parse_int(key, value);
        else if (key == "--frames") o.frames = cli::parse_int(key, value);
        else if (key == "--cpu-frames") o.cpu_frames = cli::parse_int(key, value);
        else if (key == "--threads") o.threads = cli::parse_int(key, value);
        else throw cli::UsageError(key, std::string("unknown option\n") + kUsage);
    }
    if (o.step < 1) throw cli::UsageError("--step", "must be >= 1");
    if (o.frames < 1) throw cli::UsageError("--frames", "must be >= 1");
    if (o.cpu_frames < 1) throw cli::UsageError("--cpu-frames", "must be >= 1");
    if (o.target < 8 || 2 * o.target > std::min(o.resolution.width, o.resolution.height) || o.target > 512)
        throw cli::UsageError("--target", "must be 8..512 and fit twice in the frame");
    if (o.resolution.width > 4096 || o.resolution.height > 4096)
        throw cli::UsageError("--resolution", "region covariance's exact sums hold for frames up to 4096x4096");
    return o;
}

struct BenchFrame {
    std::vector<cv::Mat> planes;  // B, G, R
    cv::Mat bgr, grey;            // the planes interleaved; its grey image
    MatchPlanes colour() const {
        MatchPlanes p;
        p.channels = 3;
        for (int c = 0; c < 3; ++c) p.planes[c] = view_of(planes[static_cast<std::size_t>(c)]);
        return p;
    }
};

BenchFrame crop(const BenchFrame& f, const cv::Rect& r) {
    BenchFrame out;
    for (const cv::Mat& p : f.planes) out.planes.push_back(p(r).clone());
    out.grey = f.grey(r).clone();
    return out;
}

double ms_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

std::size_t best_index(const std::vector<ScoreMap>& maps, std::size_t& scale) {
    std::size_t best = 0;
    float value = INFINITY;
    for (std::size_t s = 0; s < maps.size(); ++s)
        for (std::size_t i = 0; i < maps[s].scores.size(); ++i)
            if (maps[s].scores[i] < value) value = maps[s].scores[i], best = i, scale = s;
    return best;
}

struct MetricRow {
    const char* metric;
    double maps_ms, best_ms, staged_ms, split_ms, pipelined_ms, integrals_ms, windows_ms, cpu_ms;
    bool same_best;
};

struct Workload {
    const CovarianceBenchOptions& o;
    const std::vector<BenchFrame>& frames;
    const std::vector<double>& target;
    const std::vector<Size>& windows;
    CovMetric metric;

    const BenchFrame& frame(int f) const { return frames[static_cast<std::size_t>(f) % frames.size()]; }
};

const CovarianceLayout kLayout{3, false};

// The frame's planes copied into the matcher's pinned staging, as views of them (untimed: the frame as a decoder
// writing there would leave it).
std::pair<MatchPlanes, GrayView> staged(gpu::CovarianceMatcherGpu& matcher, const BenchFrame& frame) {
    return match::split_into(frame.bgr, frame.grey, matcher.staging({frame.grey.cols, frame.grey.rows}));
}

// best() (with `finish`) or start() of the frame split into the matcher's staging strip by strip as it is uploaded,
// as cascade-match does (match/template_set.cpp).
gpu::CovarianceBest split_search(gpu::CovarianceMatcherGpu& matcher, const BenchFrame& frame, const Workload& w,
                                 bool finish) {
    std::uint8_t* staging = matcher.staging({frame.grey.cols, frame.grey.rows});
    const auto planes = match::staged_planes(3, {frame.grey.cols, frame.grey.rows}, staging);
    const StagingFill fill = [&frame, staging](int top, int rows) {
        match::split_rows_into(frame.bgr, frame.grey, staging, top, rows);
    };
    matcher.start(planes.first, planes.second, w.windows, w.o.step, fill);
    return finish ? matcher.finish_best() : gpu::CovarianceBest{};
}

// Wall time per frame of --frames frames through two matchers in turn (after one warm-up frame each): frame f is
// split into matcher f % 2's staging (its frame f - 2 is finished), then started, then frame f - 1 finished.
double pipelined_ms(const Workload& w) {
    gpu::CovarianceMatcherGpu a(kLayout, w.target, w.metric), b(kLayout, w.target, w.metric);
    gpu::CovarianceMatcherGpu* matchers[2] = {&a, &b};
    for (gpu::CovarianceMatcherGpu* m : matchers) m->best(w.frame(0).colour(), view_of(w.frame(0).grey), w.windows, w.o.step);
    const auto start = std::chrono::steady_clock::now();
    for (int f = 0; f <= w.o.frames; ++f) {
        if (f < w.o.frames) split_search(*matchers[f % 2], w.frame(f), w, false);
        if (f > 0) matchers[(f - 1) % 2]->finish_best();
    }
    return ms_since(start) / w.o.frames;
}

MetricRow time_metric(const Workload& w) {
    gpu::CovarianceMatcherGpu matcher(kLayout, w.target, w.metric);
    matcher.time_kernels(true);
    std::vector<double> maps_ms, best_ms, staged_ms, split_ms, integrals, windows_ms, cpu;
    bool same = true;
    for (int f = -1; f < w.o.frames; ++f) {  // frame -1: warm-up
        const BenchFrame& frame = w.frame(std::max(f, 0));
        auto start = std::chrono::steady_clock::now();
        const auto maps = matcher.search(frame.colour(), view_of(frame.grey), w.windows, w.o.step);
        if (f >= 0) maps_ms.push_back(ms_since(start));
        start = std::chrono::steady_clock::now();
        const gpu::CovarianceBest best = matcher.best(frame.colour(), view_of(frame.grey), w.windows, w.o.step);
        if (f >= 0) best_ms.push_back(ms_since(start));
        double i = 0, k = 0;  // the integral images' three steps; the windows and the argmin
        for (const gpu::KernelTime& t : matcher.times())
            (t.name == "totals" || t.name == "carries" || t.name == "integrals" ? i : k) += t.ms;
        if (f >= 0) integrals.push_back(i);
        if (f >= 0) windows_ms.push_back(k);
        const auto [colour, grey] = staged(matcher, frame);
        start = std::chrono::steady_clock::now();
        matcher.best(colour, grey, w.windows, w.o.step);
        if (f >= 0) staged_ms.push_back(ms_since(start));
        start = std::chrono::steady_clock::now();
        const gpu::CovarianceBest split = split_search(matcher, frame, w, true);
        if (f >= 0) split_ms.push_back(ms_since(start));
        same = same && split.window == best.window && split.x == best.x && split.y == best.y &&
               split.distance == best.distance;
        if (f < 0 || f >= w.o.cpu_frames) continue;
        const auto cpu_start = std::chrono::steady_clock::now();
        CovarianceIntegrals cpu_integrals;
        build_covariance_integrals(frame.colour(), view_of(frame.grey), kLayout, cpu_integrals);
        std::vector<ScoreMap> cpu_maps;
        for (const Size& window : w.windows)
            cpu_maps.push_back(match::covariance_map(cpu_integrals, window, w.target, w.metric, w.o.step, w.o.threads));
        cpu.push_back(ms_since(cpu_start));
        std::size_t scale = 0;
        const std::size_t i_best = best_index(cpu_maps, scale);
        const ScoreMap& m = cpu_maps[scale];
        same = same && best.window == static_cast<int>(scale) &&
               best.x == static_cast<int>(i_best % m.width) * m.step && best.y == static_cast<int>(i_best / m.width) * m.step;
        std::size_t gpu_scale = 0;
        same = same && best_index(maps, gpu_scale) == i_best && gpu_scale == scale;
    }
    return {w.metric == CovMetric::jbld ? "JBLD" : "Foerstner", percentile(maps_ms, 0.5), percentile(best_ms, 0.5),
            percentile(staged_ms, 0.5), percentile(split_ms, 0.5), pipelined_ms(w), percentile(integrals, 0.5), percentile(windows_ms, 0.5),
            percentile(cpu, 0.5), same};
}

}  // namespace

int run_covariance_bench(int argc, char** argv) {
    const CovarianceBenchOptions o = parse(argc, argv);
    if (!gpu::cuda_device_available()) throw InputError("cascade-bench covariance", "no CUDA device");
    std::vector<std::string> sources = list_pgm(o.data + "/bench-frames");
    if (sources.size() < 3) throw InputError(o.data + "/bench-frames", "fewer than 3 frames");
    const std::vector<cv::Mat> grey_sources = load_bench_frames(sources, {o.resolution.width, o.resolution.height});
    std::vector<BenchFrame> frames;
    for (std::size_t f = 0; f < std::min<std::size_t>(grey_sources.size(), 6); ++f) {
        BenchFrame frame;
        for (int c = 0; c < 3; ++c) frame.planes.push_back(grey_sources[(f + c) % grey_sources.size()]);
        cv::merge(frame.planes, frame.bgr);
        cv::cvtColor(frame.bgr, frame.grey, cv::COLOR_BGR2GRAY);
        frames.push_back(frame);
    }
    const cv::Rect centre((o.resolution.width - o.target) / 2, (o.resolution.height - o.target) / 2, o.target,
                          o.target);
    const BenchFrame templ = crop(frames.front(), centre);
    CovarianceIntegrals templ_integrals;
    build_covariance_integrals(templ.colour(), view_of(templ.grey), {3, false}, templ_integrals);
    const std::vector<double> target = match::target_covariance(templ_integrals);
    std::vector<Size> windows;
    std::size_t count = 0;
    for (int s = 0; s < 8; ++s) {
        const int side = static_cast<int>(std::lround(o.target * 0.25 * std::pow(2.0, 3.0 * s / 7)));
        windows.push_back({side, side});
        count += static_cast<std::size_t>((o.resolution.width - side) / o.step + 1) *
                 ((o.resolution.height - side) / o.step + 1);
    }
    const unsigned threads = o.threads > 0 ? static_cast<unsigned>(o.threads) : std::thread::hardware_concurrency();
    const double integral_bytes = 8.0 * (o.resolution.width + 1) * (o.resolution.height + 1) * kLayout.planes();
    std::string text = "cascade-bench covariance, " + today() + ", " + device_name() + ", " +
                       std::to_string(o.resolution.width) + "x" + std::to_string(o.resolution.height) + ", target " +
                       std::to_string(o.target) + ", 8 window sizes " + std::to_string(windows.front().width) + ".." +
                       std::to_string(windows.back().width) + ", step " + std::to_string(o.step) + ": " +
                       std::to_string(count) + " windows per frame; CPU reference on " + std::to_string(threads) +
                       " threads\n\n| metric | maps ms | best ms | staged ms | split ms | pipelined ms/frame | integrals ms "
                       "(TB/s) | windows ms | CPU ms | CPU / split | CPU / pipelined | same best window |\n"
                       "|---|---|---|---|---|---|---|---|---|---|---|---|\n";
    for (const CovMetric metric : {CovMetric::jbld, CovMetric::forstner}) {
        const MetricRow r = time_metric({o, frames, target, windows, metric});
        char line[320];
        std::snprintf(line, sizeof line, "| %s | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f (%.2f) | %.3f | %.1f | %.0fx | %.0fx | %s |\n",
                      r.metric, r.maps_ms, r.best_ms, r.staged_ms, r.split_ms, r.pipelined_ms, r.integrals_ms,
                      integral_bytes / (r.integrals_ms * 1e9), r.windows_ms, r.cpu_ms, r.cpu_ms / r.split_ms,
                      r.cpu_ms / r.pipelined_ms, r.same_best ? "yes" : "NO");
        text += line;
        std::cerr << line;
    }
    std::cout << text;
    if (!o.markdown.empty()) std::ofstream(o.markdown) << text;
    return 0;
}

}  // namespace cascade::bench
