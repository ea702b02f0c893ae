#include "bench/gpu/bench_core.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <sstream>

#include "bench/gpu/bench_frames.hpp"
#include "bench/gpu/bench_util.hpp"
#include "bench/gpu/pgm.hpp"
#include "cli/usage_error.hpp"
#include "cli/values.hpp"
#include "common/error.hpp"
#include "gpu/cuda_check.hpp"

namespace cascade::bench {

namespace {

// A setter gets the option's name for its error messages ("--frames: 'x' is not an integer").
using Setter = std::function<void(BenchOptions&, const std::string& option, const std::string& value)>;

std::vector<int> ints(const std::string& option, const std::string& v) {
    std::vector<int> out;
    for (const std::string& p : split(v, ',')) out.push_back(cli::parse_int(option, p));
    return out;
}

Setter int_into(int BenchOptions::*field) {
    return [field](BenchOptions& b, const std::string& option, const std::string& v) {
        b.*field = cli::parse_int(option, v);
    };
}

Setter text_into(std::string BenchOptions::*field) {
    return [field](BenchOptions& b, const std::string&, const std::string& v) { b.*field = v; };
}

// The options that take a value, by family.
std::map<std::string, Setter> value_options(FamilyOptions family) {
    std::map<std::string, Setter> o = {
        {"--data", text_into(&BenchOptions::data)},
        {"--model", text_into(&BenchOptions::model)},
        {"--json", text_into(&BenchOptions::json)},
        {"--markdown", text_into(&BenchOptions::markdown)},
        {"--date", text_into(&BenchOptions::date)},
        {"--resolutions", [](BenchOptions& b, const std::string& option, const std::string& v) {
             b.resolutions.clear();
             for (const std::string& r : split(v, ','))
                 b.resolutions.push_back(cli::size_text(cli::parse_size(option, r)));
         }},
        {"--configs", [](BenchOptions& b, const std::string&, const std::string& v) { b.configs = split(v, ','); }},
        {"--frames", int_into(&BenchOptions::frames)},
        {"--warmup", int_into(&BenchOptions::warmup)},
        {"--opencv-frames", int_into(&BenchOptions::opencv_frames)},
        {"--parity-frames", int_into(&BenchOptions::parity_frames)},
        {"--kernel-frames", int_into(&BenchOptions::kernel_frames)},
        {"--max-sources", int_into(&BenchOptions::max_sources)},
        {"--threads", int_into(&BenchOptions::threads)},
    };
    if (family == FamilyOptions::hog) {
        o["--stride"] = int_into(&BenchOptions::stride);
        o["--scales"] = [](BenchOptions& b, const std::string& option, const std::string& v) {
            b.scales.clear();
            for (const std::string& s : split(v, ',')) b.scales.push_back(cli::parse_real(option, s));
        };
        return o;
    }
    o["--scale-factor"] = [](BenchOptions& b, const std::string& option, const std::string& v) {
        b.scales = {cli::parse_real(option, v)};
    };
    o["--min-size"] = int_into(&BenchOptions::min_size);
    o["--carveout"] = int_into(&BenchOptions::carveout);
    o["--warp-tail"] = int_into(&BenchOptions::warp_tail);
    o["--points"] = [](BenchOptions& b, const std::string& option, const std::string& v) {
        b.every_stage = v == "stages";
        b.points = v == "none" || b.every_stage ? std::vector<int>{} : ints(option, v);
    };
    return o;
}

void check(const BenchOptions& o, FamilyOptions family) {
    for (double s : o.scales)
        if (!(s > 1.0))
            throw cli::UsageError(family == FamilyOptions::hog ? "--scales" : "--scale-factor",
                                  "a scale step must be > 1");
    const auto at_least = [](const char* option, int value, int least) {
        if (value < least) throw cli::UsageError(option, "must be at least " + std::to_string(least));
    };
    at_least("--frames", o.frames, 1);
    at_least("--warmup", o.warmup, 0);
    at_least("--stride", o.stride, 0);  // 0: the model's own scan rule
    at_least("--opencv-frames", o.opencv_frames, 1);
    at_least("--parity-frames", o.parity_frames, 0);
    at_least("--kernel-frames", o.kernel_frames, 1);
    at_least("--max-sources", o.max_sources, 0);
    at_least("--threads", o.threads, 0);
    at_least("--min-size", o.min_size, 0);
}

std::vector<Config> expand_configs(const std::vector<std::string>& texts, int stride) {
    std::vector<Config> out;
    for (const std::string& t : texts) {
        const auto parts = split(t, '/');
        if ((parts.size() != 2 && parts.size() != 3) || (parts[0] != "exact" && parts[0] != "texture"))
            throw cli::UsageError("--configs", "'" + t + "' is not MODE/STRIDE/STRATEGY or MODE/STRATEGY");
        const auto mode = parts[0] == "exact" ? gpu::PyramidMode::exact : gpu::PyramidMode::texture;
        const int s = parts.size() == 3 ? cli::parse_int("--configs", parts[1]) : stride;
        if (s < 0) throw cli::UsageError("--configs", "'" + t + "': the stride must be at least 0");
        if (parts.back() == "all") {
            for (gpu::Compaction c : gpu::concrete_compactions()) out.push_back({mode, s, c});
            out.push_back({mode, s, gpu::Compaction::automatic});
        } else {
            out.push_back({mode, s, gpu::parse_compaction(parts.back(), "--configs")});
        }
    }
    return out;
}

// Timed frames of one detector: the row's timing, window and survivor columns.
void time_frames(gpu::GpuDetector& d, const std::vector<cv::Mat>& frames, int count, BenchRow& r) {
    std::vector<double> gpu_ms, call_ms, upload, pyramid, cascade_ms, download, survivors;
    double windows = 0;
    for (int i = 0; i < count; ++i) {
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
            survivors[g] += st.survivors[g] < 0 ? -1.0 / count
                                                : static_cast<double>(st.survivors[g]) / std::max(1.0, windows) / count;
    }
    r.frames = count;
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
}

BenchRow time_gpu(BenchFamily& family, const Config& config, double scale, const std::vector<cv::Mat>& frames,
                  const BenchOptions& o, const std::string& resolution,
                  const std::vector<std::vector<Detection>>& oracle) {
    const std::unique_ptr<gpu::GpuDetector> d = family.make_detector(config, scale, false);
    // 'auto' settles on a strategy during its first frames: those are warm-up, not timed.
    const int settle = static_cast<int>(gpu::concrete_compactions().size()) * gpu::GpuOptions{}.auto_frames + 2;
    const int warmup = config.compaction == gpu::Compaction::automatic ? std::max(o.warmup, settle) : o.warmup;
    for (int i = 0; i < warmup; ++i) d->detect(view_of(frames[i % frames.size()]));
    BenchRow r;
    time_frames(*d, frames, o.frames, r);
    r.resolution = resolution;
    r.detector = family.detector_name(config.mode);
    r.strategy = gpu::to_string(config.compaction);
    if (config.compaction == gpu::Compaction::automatic) r.strategy += ":" + gpu::to_string(d->chosen_compaction());
    r.rule = family.rule_text(config.stride, scale);
    if (config.mode == gpu::PyramidMode::texture) {
        r.parity = "approx";
    } else {
        bool same = true;
        for (std::size_t i = 0; i < oracle.size(); ++i)
            same = same && equal_windows(d->detect(view_of(frames[i])), oracle[i]);
        r.parity = oracle.empty() ? "-" : same ? "yes" : "no";
    }
    // Kernel timing adds an event pair per launch, so it runs on a detector of its own, with the strategy the
    // timed one used.
    const std::unique_ptr<gpu::GpuDetector> timed =
        family.make_detector({config.mode, config.stride, d->chosen_compaction()}, scale, true);
    r.kernels = family.kernel_rows(kernel_medians(*timed, frames, o.kernel_frames), r.upload_ms + r.download_ms);
    return r;
}

void report(const BenchOptions& o, const BenchContext& context, const std::vector<BenchRow>& rows, bool parity_ok) {
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
}

}  // namespace

BenchOptions parse_bench_options(int argc, char** argv, BenchOptions o, FamilyOptions family, const char* usage) {
    const auto values = value_options(family);
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--help") {
            std::cout << usage;
            std::exit(0);
        }
        if (a == "--no-opencv" || (family == FamilyOptions::lbp && a == "--no-tiles")) {
            (a == "--no-opencv" ? o.opencv : o.tiles) = false;
            continue;
        }
        const auto it = values.find(a);
        if (it == values.end()) throw cli::UsageError(a, "unknown option (--help lists them)");
        if (i + 1 >= argc) throw cli::UsageError(a, "needs a value");
        it->second(o, a, argv[++i]);
    }
    check(o, family);
    expand_configs(o.configs, o.stride);  // a bad --configs is a usage error before any file is read
    return o;
}

int run_bench(const BenchOptions& o, BenchFamily& family) {
    const std::vector<std::string> sources = bench_frame_sources(o.data, o.max_sources);
    const bool have_gpu = gpu::cuda_device_available();
    if (!have_gpu) std::cout << "SKIP: no CUDA device: GPU rows are left out\n";
    const int threads = o.threads > 0 ? o.threads : cv::getNumberOfCPUs();
    cv::setNumThreads(threads);
    const bool opencv = o.opencv && family.opencv_available();
    // scale_factor 0: the rows carry their own scale step (the rule column).
    const BenchContext context{have_gpu ? device_name() : "no CUDA device", o.model, o.date.empty() ? today() : o.date,
                               threads, o.scales.size() == 1 ? o.scales[0] : 0.0,
                               o.min_size > 0 ? o.min_size : family.window().width};
    const auto configs = expand_configs(o.configs, o.stride);
    std::vector<BenchRow> rows;
    bool parity_ok = true;
    for (const std::string& res : o.resolutions) {
        const Size size = cli::parse_size("--resolutions", res);
        const std::vector<cv::Mat> frames = load_bench_frames(sources, cv::Size(size.width, size.height));
        std::cerr << res << ": " << frames.size() << " frames\n";
        for (double scale : o.scales) {
            double opencv_ms = 0;
            if (opencv) {
                rows.push_back(family.time_opencv(frames, res, scale, o.stride));
                opencv_ms = rows.back().median_ms;
            }
            if (!have_gpu) continue;
            std::map<int, std::vector<std::vector<Detection>>> oracle;  // per stride: CPU reference windows
            for (const Config& config : configs) {
                if (config.mode == gpu::PyramidMode::exact && !oracle.count(config.stride))
                    for (int i = 0; i < o.parity_frames && i < static_cast<int>(frames.size()); ++i)
                        oracle[config.stride].push_back(family.cpu_windows(frames[i], config.stride, scale));
                static const std::vector<std::vector<Detection>> none;
                BenchRow r = time_gpu(family, config, scale, frames, o, res,
                                      config.mode == gpu::PyramidMode::exact ? oracle[config.stride] : none);
                r.speedup = opencv_ms > 0 && r.median_ms > 0 ? opencv_ms / r.median_ms : 0;
                parity_ok = parity_ok && r.parity != "no";
                std::cerr << "  " << r.detector << " " << r.strategy << " " << r.rule << ": " << r.median_ms
                          << " ms, parity " << r.parity << "\n";
                rows.push_back(r);
            }
        }
    }
    report(o, context, rows, parity_ok);
    return parity_ok ? 0 : 1;
}

}  // namespace cascade::bench
