#include "bench/gpu/hog_bench.hpp"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <opencv2/core.hpp>
#include <opencv2/objdetect.hpp>

#include "bench/gpu/bench_frames.hpp"
#include "bench/gpu/bench_report.hpp"
#include "bench/gpu/bench_util.hpp"
#include "bench/gpu/pgm.hpp"
#include "common/error.hpp"
#include "common/hog_cpu_detector.hpp"
#include "common/model_io.hpp"
#include "gpu/cuda_check.hpp"
#include "gpu/hog_gpu_detector.hpp"

namespace cascade::bench {

namespace {

struct HogOptions {
    std::string data = "gpu-pack/data", model, json, markdown, date;
    std::vector<std::string> resolutions = {"640x480", "1280x960", "1920x1080"};
    std::vector<double> scales = {1.05, 1.1, 1.2};
    std::vector<std::string> configs = {"exact/auto", "texture/auto"};
    int stride = kHogSparseStride;
    int frames = 100, warmup = 10, opencv_frames = 10, parity_frames = 2, kernel_frames = 10;
    int max_sources = 0, threads = 0;
    bool opencv = true;
};

const char* const kUsage =
    "usage: cascade-bench hog [--data DIR] [--model XML] [--resolutions 640x480,1280x960,1920x1080]\n"
    "  [--scales 1.05,1.1,1.2] [--stride 8] [--configs exact/auto,texture/auto]  (MODE/STRATEGY; strategy\n"
    "   none|global_atomic|shared_atomic|hybrid|prefix_sum|auto|all; stride 0 = OpenCV's cascade rule)\n"
    "  [--frames 100] [--warmup 10] [--opencv-frames 10] [--parity-frames 2] [--kernel-frames 10]\n"
    "  [--max-sources N] [--threads N] [--no-opencv] [--json FILE] [--markdown FILE] [--date TEXT]\n";

HogOptions parse(int argc, char** argv) {
    HogOptions o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--help") {
            std::cout << kUsage;
            std::exit(0);
        }
        if (a == "--no-opencv") {
            o.opencv = false;
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
            else if (a == "--scales") {
                o.scales.clear();
                for (const std::string& s : split(v, ',')) o.scales.push_back(std::stod(s));
            }
            else if (a == "--stride") o.stride = std::stoi(v);
            else if (a == "--frames") o.frames = std::stoi(v);
            else if (a == "--warmup") o.warmup = std::stoi(v);
            else if (a == "--opencv-frames") o.opencv_frames = std::stoi(v);
            else if (a == "--parity-frames") o.parity_frames = std::stoi(v);
            else if (a == "--kernel-frames") o.kernel_frames = std::stoi(v);
            else if (a == "--max-sources") o.max_sources = std::stoi(v);
            else if (a == "--threads") o.threads = std::stoi(v);
            else throw InputError(a, "unknown option (cascade-bench hog --help lists them)");
        } catch (const std::logic_error&) {
            throw InputError(a, "bad value '" + v + "'");
        }
    }
    if (o.model.empty()) o.model = o.data + "/models/pedestrian_hog.xml";
    for (double s : o.scales)
        if (!(s > 1.0)) throw InputError("--scales", "every scale step must be > 1");
    if (o.frames < 1 || o.warmup < 0 || o.stride < 0 || o.opencv_frames < 1) throw InputError("options", "out of range");
    return o;
}

struct Config {
    gpu::PyramidMode mode;
    gpu::Compaction compaction;
};

std::vector<Config> expand_configs(const std::vector<std::string>& texts) {
    std::vector<Config> out;
    for (const std::string& t : texts) {
        const auto parts = split(t, '/');
        if (parts.size() != 2 || (parts[0] != "exact" && parts[0] != "texture"))
            throw InputError("--configs", "'" + t + "' is not MODE/STRATEGY");
        const auto mode = parts[0] == "exact" ? gpu::PyramidMode::exact : gpu::PyramidMode::texture;
        if (parts[1] == "all") {
            for (gpu::Compaction c : gpu::concrete_compactions()) out.push_back({mode, c});
            out.push_back({mode, gpu::Compaction::automatic});
        } else {
            out.push_back({mode, gpu::parse_compaction(parts[1], "--configs")});
        }
    }
    return out;
}

// "s8 x1.05": stride 8 (or "cv" for OpenCV's cascade rule), scale step 1.05.
std::string rule_text(int stride, double scale) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%s x%.2f", stride == 0 ? "cv" : ("s" + std::to_string(stride)).c_str(), scale);
    return buf;
}

// The steps: kernel medians summed into resample, gradient + integral rows (one kernel), integral
// columns, early stages (the first group), late stages (later groups; the shared-memory strategy runs all groups
// in one kernel, reported as "stages (one kernel)"), skip rule, and the transfers measured by the detector's
// events.
std::vector<gpu::KernelTime> by_step(const std::vector<gpu::KernelTime>& kernels, double transfers_ms) {
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

BenchRow time_opencv(const cv::HOGDescriptor& hog, const std::vector<cv::Mat>& frames, const HogOptions& o,
                     const std::string& resolution, double scale) {
    std::vector<cv::Rect> found;
    std::vector<double> weights;
    const cv::Size stride(o.stride > 0 ? o.stride : 8, o.stride > 0 ? o.stride : 8);
    // hit threshold 0, no padding, group threshold 0: raw windows, like the GPU rows.
    auto detect = [&](const cv::Mat& f) { hog.detectMultiScale(f, found, weights, 0, stride, cv::Size(), scale, 0, false); };
    detect(frames[0]);  // warm-up
    std::vector<double> ms;
    for (int i = 0; i < o.opencv_frames; ++i) {
        const auto start = std::chrono::steady_clock::now();
        detect(frames[i % frames.size()]);
        ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    }
    BenchRow r;
    r.resolution = resolution;
    r.detector = "opencv-hog";
    r.strategy = "-";
    r.rule = rule_text(stride.width, scale);
    r.frames = o.opencv_frames;
    r.median_ms = r.median_call_ms = percentile(ms, 0.5);
    r.p90_ms = percentile(ms, 0.9);
    r.speedup = 1.0;
    r.parity = "-";
    return r;
}

BenchRow time_gpu(const HogCascade& model, const Config& config, double scale, const std::vector<cv::Mat>& frames,
                  const HogOptions& o, const std::string& resolution, const std::vector<std::vector<Detection>>& oracle) {
    gpu::HogGpuOptions options;
    options.mode = config.mode;
    options.compaction = config.compaction;
    options.rule.stride = o.stride;
    options.pyramid.scale_factor = scale;
    gpu::HogGpuDetector d(model, options);
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
    r.detector = config.mode == gpu::PyramidMode::exact ? "hog-exact" : "hog-texture";
    r.strategy = gpu::to_string(config.compaction);
    if (config.compaction == gpu::Compaction::automatic) r.strategy += ":" + gpu::to_string(d.chosen_compaction());
    r.rule = rule_text(o.stride, scale);
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
        for (std::size_t i = 0; i < oracle.size(); ++i) same = same && equal_windows(d.detect(view_of(frames[i])), oracle[i]);
        r.parity = oracle.empty() ? "-" : same ? "yes" : "no";
    }
    // Kernel timing adds an event pair per launch, so it runs on its own detector, with the strategy the timed
    // one used.
    options.time_kernels = true;
    options.compaction = d.chosen_compaction();
    gpu::HogGpuDetector timed(model, options);
    r.kernels = by_step(kernel_medians(timed, frames, o.kernel_frames), r.upload_ms + r.download_ms);
    return r;
}

int run(const HogOptions& o) {
    const Model loaded = load_model(o.model);
    const auto* model = std::get_if<HogCascade>(&loaded.cascade);
    if (!model) throw InputError(o.model, "not a HoG cascade");
    std::vector<std::string> sources = list_pgm(o.data + "/frames");
    const std::vector<std::string> extra = list_pgm(o.data + "/bench-frames");
    sources.insert(sources.end(), extra.begin(), extra.end());
    if (o.max_sources > 0 && static_cast<int>(sources.size()) > o.max_sources) sources.resize(o.max_sources);
    if (sources.empty()) throw InputError(o.data, "no frames (frames/*.pgm, bench-frames/*.pgm)");

    const bool have_gpu = gpu::cuda_device_available();
    if (!have_gpu) std::cout << "SKIP: no CUDA device: GPU rows are left out\n";
    const int threads = o.threads > 0 ? o.threads : cv::getNumberOfCPUs();
    cv::setNumThreads(threads);
    cv::HOGDescriptor hog;  // 64x128 window, 16x16 blocks, 8x8 cells, 9 bins: Dalal and Triggs
    hog.setSVMDetector(cv::HOGDescriptor::getDefaultPeopleDetector());

    // scale_factor 0: the rows carry their own scale step (the rule column).
    BenchContext context{have_gpu ? device_name() : "no CUDA device", o.model, o.date.empty() ? today() : o.date,
                         threads, 0.0, model->window.width};
    const auto configs = expand_configs(o.configs);
    std::vector<BenchRow> rows;
    bool parity_ok = true;
    for (const std::string& res : o.resolutions) {
        int w = 0, h = 0;
        if (std::sscanf(res.c_str(), "%dx%d", &w, &h) != 2 || w <= 0 || h <= 0)
            throw InputError("--resolutions", "'" + res + "' is not WIDTHxHEIGHT");
        const std::vector<cv::Mat> frames = load_bench_frames(sources, cv::Size(w, h));
        std::cerr << res << ": " << frames.size() << " frames\n";
        for (double scale : o.scales) {
            double opencv_ms = 0;
            if (o.opencv) {
                rows.push_back(time_opencv(hog, frames, o, res, scale));
                opencv_ms = rows.back().median_ms;
            }
            if (!have_gpu) continue;
            std::vector<std::vector<Detection>> oracle;  // CPU reference windows of the first frames
            ScanParams params;
            params.pyramid.scale_factor = scale;
            params.rule.stride = o.stride;
            for (int i = 0; i < o.parity_frames && i < static_cast<int>(frames.size()); ++i) {
                oracle.push_back(detect_windows(*model, view_of(frames[i]), params));
                std::sort(oracle.back().begin(), oracle.back().end(), by_rect_then_score);
            }
            for (const Config& config : configs) {
                BenchRow r = time_gpu(*model, config, scale, frames, o, res, oracle);
                r.speedup = opencv_ms > 0 && r.median_ms > 0 ? opencv_ms / r.median_ms : 0;
                parity_ok = parity_ok && r.parity != "no";
                std::cerr << "  " << r.detector << " " << r.strategy << " " << r.rule << ": " << r.median_ms
                          << " ms, parity " << r.parity << "\n";
                rows.push_back(r);
            }
        }
    }
    if (!o.json.empty()) {
        std::ofstream f(o.json);
        write_json(f, context, rows);
    }
    std::ostringstream md;
    write_markdown(md, context, rows);
    if (!o.markdown.empty()) std::ofstream(o.markdown) << md.str();
    std::cout << md.str() << "\n";
    write_summary(std::cout, rows);
    if (!parity_ok) std::cout << "FAIL: a GPU configuration's raw windows differ from the CPU reference\n";
    return parity_ok ? 0 : 1;
}

}  // namespace

int run_hog_bench(int argc, char** argv) { return run(parse(argc, argv)); }

}  // namespace cascade::bench
