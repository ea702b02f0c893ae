// cascade-bench covariance: region covariance search on the GPU (gpu/covariance_gpu.hpp) against this toolkit's
// CPU reference (common/covariance_integrals + match/covariance_map, all cores) on the 2019 thesis's workload:
// 2048x1152 colour frames (three real bench frames as the B, G, R planes), a 400x400 target cut from the first
// frame's centre, 8 window sizes from 0.25 to 2 times the target (geometric), windows --step pixels apart.
// GPU: the whole call (upload of the planes, integral images, every window's distance, download of the maps)
// and its kernels (CUDA events), median over --frames; CPU: median over --cpu-frames. "same best": the GPU's and
// the CPU's best window agree on every CPU frame.
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
    cv::Mat grey;
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

template <class Map>
std::size_t best_index(const std::vector<Map>& maps, std::size_t& scale) {
    std::size_t best = 0;
    float value = INFINITY;
    for (std::size_t s = 0; s < maps.size(); ++s)
        for (std::size_t i = 0; i < maps[s].scores.size(); ++i)
            if (maps[s].scores[i] < value) value = maps[s].scores[i], best = i, scale = s;
    return best;
}

struct MetricRow {
    const char* metric;
    double gpu_call_ms, rows_ms, columns_ms, windows_ms, cpu_ms;
    bool same_best;
};

MetricRow time_metric(const CovarianceBenchOptions& o, const std::vector<BenchFrame>& frames,
                      const std::vector<double>& target, CovMetric metric, const std::vector<Size>& windows) {
    const CovarianceLayout layout{3, false};
    gpu::CovarianceMatcherGpu matcher(layout, target, metric);
    matcher.time_kernels(true);
    std::vector<double> call, rows, columns, window_ms, cpu;
    bool same = true;
    for (int f = 0; f < o.frames; ++f) {
        const BenchFrame& frame = frames[static_cast<std::size_t>(f) % frames.size()];
        const auto start = std::chrono::steady_clock::now();
        const auto maps = matcher.search(frame.colour(), view_of(frame.grey), windows, o.step);
        call.push_back(ms_since(start));
        double w = 0;
        for (const gpu::KernelTime& k : matcher.times()) {
            if (k.name == "rows") rows.push_back(k.ms);
            else if (k.name == "columns") columns.push_back(k.ms);
            else w += k.ms;
        }
        window_ms.push_back(w);
        if (f >= o.cpu_frames) continue;
        const auto cpu_start = std::chrono::steady_clock::now();
        CovarianceIntegrals integrals;
        build_covariance_integrals(frame.colour(), view_of(frame.grey), layout, integrals);
        std::vector<ScoreMap> cpu_maps;
        for (const Size& window : windows)
            cpu_maps.push_back(match::covariance_map(integrals, window, target, metric, o.step, o.threads));
        cpu.push_back(ms_since(cpu_start));
        std::size_t gpu_scale = 0, cpu_scale = 0;
        same = same && best_index(maps, gpu_scale) == best_index(cpu_maps, cpu_scale) && gpu_scale == cpu_scale;
    }
    return {metric == CovMetric::jbld ? "JBLD" : "Foerstner", percentile(call, 0.5), percentile(rows, 0.5),
            percentile(columns, 0.5), percentile(window_ms, 0.5), percentile(cpu, 0.5), same};
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
        cv::Mat merged;
        cv::merge(frame.planes, merged);
        cv::cvtColor(merged, frame.grey, cv::COLOR_BGR2GRAY);
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
    std::string text = "cascade-bench covariance, " + today() + ", " + device_name() + ", " +
                       std::to_string(o.resolution.width) + "x" + std::to_string(o.resolution.height) + ", target " +
                       std::to_string(o.target) + ", 8 window sizes " + std::to_string(windows.front().width) + ".." +
                       std::to_string(windows.back().width) + ", step " + std::to_string(o.step) + ": " +
                       std::to_string(count) + " windows per frame; CPU reference on " + std::to_string(threads) +
                       " threads\n\n| metric | GPU call ms | rows ms | columns ms | windows ms | CPU ms | "
                       "CPU / GPU call | same best window |\n|---|---|---|---|---|---|---|---|\n";
    for (const CovMetric metric : {CovMetric::jbld, CovMetric::forstner}) {
        const MetricRow r = time_metric(o, frames, target, metric, windows);
        char line[256];
        std::snprintf(line, sizeof line, "| %s | %.3f | %.3f | %.3f | %.3f | %.1f | %.0fx | %s |\n", r.metric,
                      r.gpu_call_ms, r.rows_ms, r.columns_ms, r.windows_ms, r.cpu_ms, r.cpu_ms / r.gpu_call_ms,
                      r.same_best ? "yes" : "NO");
        text += line;
        std::cerr << line;
    }
    std::cout << text;
    if (!o.markdown.empty()) std::ofstream(o.markdown) << text;
    return 0;
}

}  // namespace cascade::bench
