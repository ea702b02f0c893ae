// cascade-bench: times the GPU LBP detector's strategies and OpenCV's CPU CascadeClassifier on the same real
// frames, in one run, on the machine it runs on (see docs/benchmarks.md). Frames are PGM files (the GPU
// machine has no OpenCV codecs), centre-cropped and resized to each resolution.
//
// For each resolution: OpenCV's detectMultiScale on all cores (its own scan rule, raw windows), then each
// configuration MODE/STRIDE/STRATEGY: warm-up frames (enough for 'auto' to settle), then timed frames cycling
// through the set: median and p90 of the device time (pyramid + cascade, CUDA events), the median detect()
// call, windows per second, survivors after each compaction point, per-kernel medians, and parity: exact mode
// must give the CPU reference's raw windows (detect_windows) on the first frames. Exit 1 on any parity failure.
// `cascade-bench hog ...` times the HoG detector instead (bench/gpu/hog_bench.hpp).
#include <algorithm>
#include <chrono>
#include <fstream>
#include <iostream>
#include <map>
#include <opencv2/core.hpp>
#include <opencv2/core/ocl.hpp>
#include <opencv2/objdetect.hpp>
#include <sstream>

#include "bench/gpu/bench_frames.hpp"
#include "bench/gpu/bench_report.hpp"
#include "bench/gpu/bench_util.hpp"
#include "bench/gpu/hog_bench.hpp"
#include "bench/gpu/pgm.hpp"
#include "common/error.hpp"
#include "common/lbp_cpu_detector.hpp"
#include "common/model_io.hpp"
#include "gpu/cuda_check.hpp"
#include "gpu/lbp_gpu_detector.hpp"

namespace {

using namespace cascade;
using bench::BenchRow;
using bench::by_rect_then_score;
using bench::percentile;
using bench::split;
using bench::view_of;

struct Options {
    std::string data = "gpu-pack/data", model, json, markdown, date;
    std::vector<std::string> resolutions = {"720x480", "1280x720", "1920x1080"};
    std::vector<std::string> configs = {"exact/1/all", "texture/1/auto", "exact/0/auto"};
    std::vector<int> points = gpu::LbpGpuOptions{}.compaction_points;
    bool every_stage = false;  // --points stages: a compaction point at every stage boundary
    bool tiles = true;
    int carveout = -1;
    int warp_tail = gpu::LbpGpuOptions{}.warp_tail;
    double scale_factor = 1.1;
    int min_size = 24, frames = 200, warmup = 20, opencv_frames = 20, parity_frames = 2, kernel_frames = 10;
    int max_sources = 0, threads = 0;
    bool opencv = true;
};

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
    "       cascade-bench hog [...]  (the HoG detector against OpenCV's HOGDescriptor; hog --help)\n";

Options parse(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--help") {
            std::cout << kUsage;
            std::exit(0);
        }
        if (a == "--no-opencv" || a == "--no-tiles") {
            (a == "--no-opencv" ? o.opencv : o.tiles) = false;
            continue;
        }
        if (i + 1 >= argc) throw InputError(a, "needs a value");
        const std::string v = argv[++i];
        try {
            if (a == "--data") o.data = v;
            else if (a == "--model") o.model = v;
            else if (a == "--json") o.json = v;
            else if (a == "--markdown") o.markdown = v;
            else if (a == "--date") o.date = v;
            else if (a == "--resolutions") o.resolutions = split(v, ',');
            else if (a == "--configs") o.configs = split(v, ',');
            else if (a == "--carveout") o.carveout = std::stoi(v);
            else if (a == "--warp-tail") o.warp_tail = std::stoi(v);
            else if (a == "--points") {
                o.points.clear();
                o.every_stage = v == "stages";
                if (v != "none" && !o.every_stage)
                    for (const std::string& p : split(v, ',')) o.points.push_back(std::stoi(p));
            }
            else if (a == "--scale-factor") o.scale_factor = std::stod(v);
            else if (a == "--min-size") o.min_size = std::stoi(v);
            else if (a == "--frames") o.frames = std::stoi(v);
            else if (a == "--warmup") o.warmup = std::stoi(v);
            else if (a == "--opencv-frames") o.opencv_frames = std::stoi(v);
            else if (a == "--parity-frames") o.parity_frames = std::stoi(v);
            else if (a == "--kernel-frames") o.kernel_frames = std::stoi(v);
            else if (a == "--max-sources") o.max_sources = std::stoi(v);
            else if (a == "--threads") o.threads = std::stoi(v);
            else throw InputError(a, "unknown option (--help lists them)");
        } catch (const std::logic_error&) {
            throw InputError(a, "bad value '" + v + "'");
        }
    }
    if (o.model.empty()) o.model = o.data + "/models/lbpcascade_frontalface.xml";
    if (o.scale_factor <= 1.0 || o.frames < 1 || o.warmup < 0) throw InputError("options", "out of range");
    return o;
}

BenchRow time_opencv(cv::CascadeClassifier& classifier, const std::vector<cv::Mat>& frames, const Options& o,
                     const std::string& resolution) {
    std::vector<cv::Rect> found;
    const cv::Size min_size(o.min_size, o.min_size);
    classifier.detectMultiScale(frames[0], found, o.scale_factor, 0, 0, min_size);  // warm-up
    std::vector<double> ms;
    for (int i = 0; i < o.opencv_frames; ++i) {
        const auto start = std::chrono::steady_clock::now();
        classifier.detectMultiScale(frames[i % frames.size()], found, o.scale_factor, 0, 0, min_size);
        ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    }
    BenchRow r;
    r.resolution = resolution;
    r.detector = "opencv-cpu";
    r.strategy = "-";
    r.rule = "opencv";
    r.frames = o.opencv_frames;
    r.median_ms = r.median_call_ms = percentile(ms, 0.5);
    r.p90_ms = percentile(ms, 0.9);
    r.speedup = 1.0;
    r.parity = "-";
    return r;
}

struct Config {
    gpu::PyramidMode mode;
    int stride;
    gpu::Compaction compaction;
};

std::vector<Config> expand_configs(const std::vector<std::string>& texts) {
    std::vector<Config> out;
    for (const std::string& t : texts) {
        const auto parts = split(t, '/');
        if (parts.size() != 3 || (parts[0] != "exact" && parts[0] != "texture"))
            throw InputError("--configs", "'" + t + "' is not MODE/STRIDE/STRATEGY");
        const auto mode = parts[0] == "exact" ? gpu::PyramidMode::exact : gpu::PyramidMode::texture;
        const int stride = std::stoi(parts[1]);
        if (parts[2] == "all") {
            for (gpu::Compaction c : gpu::concrete_compactions()) out.push_back({mode, stride, c});
            out.push_back({mode, stride, gpu::Compaction::automatic});
        } else {
            out.push_back({mode, stride, gpu::parse_compaction(parts[2], "--configs")});
        }
    }
    return out;
}

// Kernel times on a detector of their own (an event pair per launch costs a little).
std::vector<gpu::KernelTime> kernel_times(const LbpCascade& model, gpu::LbpGpuOptions options,
                                          const std::vector<cv::Mat>& frames, int count) {
    options.time_kernels = true;
    if (options.compaction == gpu::Compaction::automatic) return {};  // the concrete rows show its winner
    gpu::LbpGpuDetector d(model, options);
    return bench::kernel_medians(d, frames, count);
}

BenchRow time_gpu(const LbpCascade& model, const Config& config, const std::vector<cv::Mat>& frames, const Options& o,
                  const std::string& resolution, const std::vector<std::vector<Detection>>& oracle) {
    gpu::LbpGpuOptions options;
    options.mode = config.mode;
    options.compaction = config.compaction;
    options.rule.stride = config.stride;
    options.pyramid.scale_factor = o.scale_factor;
    options.pyramid.min_object = {o.min_size, o.min_size};
    options.compaction_points = o.points;
    if (o.every_stage) {
        options.compaction_points.clear();
        for (std::size_t s = 0; s + 1 < model.stages.size(); ++s)
            options.compaction_points.push_back(model.stages[s].first + model.stages[s].count);
    }
    options.integral_tiles = o.tiles;
    options.shared_carveout = o.carveout;
    options.warp_tail = o.warp_tail;
    gpu::LbpGpuDetector d(model, options);
    // 'auto' settles on a strategy during its first frames: those are warm-up, not timed.
    const int settle = static_cast<int>(gpu::concrete_compactions().size()) * options.auto_frames + 2;
    const int warmup = config.compaction == gpu::Compaction::automatic ? std::max(o.warmup, settle) : o.warmup;
    for (int i = 0; i < warmup; ++i) d.detect(view_of(frames[i % frames.size()]));

    std::vector<double> gpu_ms, call_ms, upload, pyramid, cascade_ms, download;
    std::vector<double> survivors;
    double windows = 0;
    for (int i = 0; i < o.frames; ++i) {
        const auto start = std::chrono::steady_clock::now();
        d.detect(view_of(frames[i % frames.size()]));
        call_ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
        const auto& st = d.last_stats();
        gpu_ms.push_back(st.gpu_ms);
        upload.push_back(st.upload_ms);
        pyramid.push_back(st.pyramid_ms);
        cascade_ms.push_back(st.cascade_ms);
        download.push_back(st.download_ms);
        windows = static_cast<double>(st.windows);
        survivors.resize(st.survivors.size(), 0.0);
        for (std::size_t g = 0; g < st.survivors.size(); ++g)
            survivors[g] += st.survivors[g] < 0 ? -1.0 / o.frames
                                                : static_cast<double>(st.survivors[g]) / std::max(1.0, windows) / o.frames;
    }
    BenchRow r;
    r.resolution = resolution;
    r.detector = config.mode == gpu::PyramidMode::exact ? "gpu-exact" : "gpu-texture";
    r.strategy = gpu::to_string(config.compaction);
    if (config.compaction == gpu::Compaction::automatic) r.strategy += ":" + gpu::to_string(d.chosen_compaction());
    r.rule = config.stride == 0 ? "opencv" : "stride " + std::to_string(config.stride);
    r.frames = o.frames;
    r.median_ms = percentile(gpu_ms, 0.5);
    r.p90_ms = percentile(gpu_ms, 0.9);
    r.median_call_ms = percentile(call_ms, 0.5);
    r.upload_ms = percentile(upload, 0.5);
    r.pyramid_ms = percentile(pyramid, 0.5);
    r.cascade_ms = percentile(cascade_ms, 0.5);
    r.download_ms = percentile(download, 0.5);
    r.windows = windows;
    r.windows_per_s = r.median_ms > 0 ? windows / (r.median_ms / 1e3) : 0;
    r.points_weak = d.last_stats().group_end_weak;
    for (double& s : survivors) s = s < 0 ? -1 : s;
    r.survivors = survivors;
    if (config.mode == gpu::PyramidMode::texture) {
        r.parity = "approx";
    } else {
        bool same = true;
        for (std::size_t i = 0; i < oracle.size(); ++i) same = same && bench::equal_windows(d.detect(view_of(frames[i])), oracle[i]);
        r.parity = oracle.empty() ? "-" : same ? "yes" : "no";
    }
    r.kernels = kernel_times(model, options, frames, o.kernel_frames);
    return r;
}

int run(const Options& o) {
    const Model loaded = load_model(o.model);
    const auto* model = std::get_if<LbpCascade>(&loaded.cascade);
    if (!model) throw InputError(o.model, "not an LBP cascade");
    std::vector<std::string> sources = list_pgm(o.data + "/frames");
    const std::vector<std::string> extra = list_pgm(o.data + "/bench-frames");
    sources.insert(sources.end(), extra.begin(), extra.end());
    if (o.max_sources > 0 && static_cast<int>(sources.size()) > o.max_sources) sources.resize(o.max_sources);
    if (sources.empty()) throw InputError(o.data, "no frames (frames/*.pgm, bench-frames/*.pgm)");

    const bool have_gpu = gpu::cuda_device_available();
    if (!have_gpu) std::cout << "SKIP: no CUDA device: GPU rows are left out\n";
    cv::ocl::setUseOpenCL(false);
    const int threads = o.threads > 0 ? o.threads : cv::getNumberOfCPUs();
    cv::setNumThreads(threads);
    cv::CascadeClassifier classifier;
    const bool opencv = o.opencv && classifier.load(o.model);
    if (o.opencv && !opencv) std::cout << "note: OpenCV cannot load " << o.model << ": no OpenCV rows\n";

    bench::BenchContext context{have_gpu ? bench::device_name() : "no CUDA device", o.model,
                                o.date.empty() ? bench::today() : o.date,
                                threads, o.scale_factor, o.min_size};
    const auto configs = expand_configs(o.configs);
    std::vector<BenchRow> rows;
    bool parity_ok = true;
    for (const std::string& res : o.resolutions) {
        int w = 0, h = 0;
        if (std::sscanf(res.c_str(), "%dx%d", &w, &h) != 2 || w <= 0 || h <= 0)
            throw InputError("--resolutions", "'" + res + "' is not WIDTHxHEIGHT");
        const std::vector<cv::Mat> frames = bench::load_bench_frames(sources, cv::Size(w, h));
        std::cerr << res << ": " << frames.size() << " frames\n";
        double opencv_ms = 0;
        if (opencv) {
            rows.push_back(time_opencv(classifier, frames, o, res));
            opencv_ms = rows.back().median_ms;
        }
        if (!have_gpu) continue;
        std::map<int, std::vector<std::vector<Detection>>> oracle;  // per stride: CPU reference windows
        for (const Config& config : configs) {
            if (config.mode == gpu::PyramidMode::exact && !oracle.count(config.stride)) {
                ScanParams params;
                params.pyramid.scale_factor = o.scale_factor;
                params.pyramid.min_object = {o.min_size, o.min_size};
                params.rule.stride = config.stride;
                auto& windows = oracle[config.stride];
                for (int i = 0; i < o.parity_frames && i < static_cast<int>(frames.size()); ++i) {
                    windows.push_back(detect_windows(*model, view_of(frames[i]), params));
                    std::sort(windows.back().begin(), windows.back().end(), by_rect_then_score);
                }
            }
            static const std::vector<std::vector<Detection>> none;
            BenchRow r = time_gpu(*model, config, frames, o, res,
                                  config.mode == gpu::PyramidMode::exact ? oracle[config.stride] : none);
            r.speedup = opencv_ms > 0 && r.median_ms > 0 ? opencv_ms / r.median_ms : 0;
            parity_ok = parity_ok && r.parity != "no";
            std::cerr << "  " << r.detector << " " << r.strategy << " " << r.rule << ": " << r.median_ms << " ms, parity "
                      << r.parity << "\n";
            rows.push_back(r);
        }
    }
    if (!o.json.empty()) {
        std::ofstream f(o.json);
        bench::write_json(f, context, rows);
    }
    std::ostringstream md;
    bench::write_markdown(md, context, rows);
    if (!o.markdown.empty()) std::ofstream(o.markdown) << md.str();
    std::cout << md.str() << "\n";
    bench::write_summary(std::cout, rows);
    if (!parity_ok) std::cout << "FAIL: a GPU configuration's raw windows differ from the CPU reference\n";
    return parity_ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
    try {
        if (argc > 1 && std::string(argv[1]) == "hog") return bench::run_hog_bench(argc - 1, argv + 1);
        return run(parse(argc, argv));
    } catch (const InputError& e) {
        std::cerr << e.what() << "\n";
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "cascade-bench: " << e.what() << "\n";
        return 1;
    }
}
