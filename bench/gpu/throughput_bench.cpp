// cascade-bench --throughput: frames per second of the GPU detectors with several frames in flight
// (gpu/frame_pipeline.hpp), on one GPU and, with --devices, on several, beside OpenCV's CPU detector on all cores,
// on the benchmark's real frames at each resolution.
//
// Each family runs its headline configuration (kRuns: exact pyramid, automatic compaction). For each device set
// (the first listed device alone, then every listed one when there are several) and each number of frames in
// flight: warm-up frames (enough for every slot's automatic choice to settle), then `repeats` passes of `frames`
// frames through the full pipeline, wall clock from the first submit to the last take(): the row is the median
// pass's frames per second. Every frame's windows are checked against the first run's for the same frame, and
// the first --parity-frames frames against the CPU reference: "equal" says whether all were.
// A row is a detector on a resolution; another detector (a GPU peer such as OpenCV's CUDA cascade) is one more
// row maker beside opencv_row and gpu_row.
#include <chrono>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include "bench/gpu/bench_frames.hpp"
#include "bench/gpu/bench_util.hpp"
#include "bench/gpu/families.hpp"
#include "cli/device_list.hpp"
#include "cli/usage_error.hpp"
#include "cli/values.hpp"
#include "common/error.hpp"
#include "common/hog_cpu_detector.hpp"
#include "gpu/frame_pipeline.hpp"

namespace cascade::bench {

namespace {

const char* const kUsage =
    "usage: cascade-bench --throughput [--data DIR] [--families lbp,hog,haar]\n"
    "  [--resolutions 720x480,1280x720,1920x1080] [--in-flight 1,2,4,8] [--devices 0|all|0,1|0,0]\n"
    "  [--frames 300] [--repeats 3] [--opencv-frames 10] [--parity-frames 2] [--max-sources N] [--threads N]\n"
    "  [--no-opencv] [--json FILE] [--markdown FILE] [--date TEXT]\n"
    "  (frames per second with N frames in flight per device listed; with several devices, the first alone and\n"
    "   then all of them; LBP: lbpcascade_frontalface, stride 1, x1.1; HoG: pedestrian_hog, stride 8, x1.05;\n"
    "   Haar: haarcascade_frontalface_default, OpenCV's rule, x1.1; exact pyramid, automatic compaction)\n";

struct ThroughputOptions {
    std::string data = "gpu-pack/data", json, markdown, date;
    std::vector<std::string> families = {"lbp", "hog", "haar"};
    std::vector<std::string> resolutions = {"720x480", "1280x720", "1920x1080"};
    std::vector<int> in_flight = {1, 2, 4, 8};
    cli::DeviceList devices = {false, {0}};
    int frames = 300, repeats = 3, opencv_frames = 10, parity_frames = 2, max_sources = 0, threads = 0;
    bool opencv = true;
};

// A family's headline configuration.
struct FamilyRun {
    const char* name;
    Config config;
    double scale;
};
const FamilyRun kRuns[] = {
    {"lbp", {gpu::PyramidMode::exact, 1, gpu::Compaction::automatic}, 1.1},
    {"hog", {gpu::PyramidMode::exact, kHogSparseStride, gpu::Compaction::automatic}, 1.05},
    {"haar", {gpu::PyramidMode::exact, 0, gpu::Compaction::automatic}, 1.1},
};

struct ThroughputRow {
    std::string resolution, family, detector, rule, devices;
    int in_flight = 0;  // per device listed; 0: not a GPU pipeline
    double fps = 0;
    double vs_opencv = 0, vs_one_device = 0;  // 0: no such row
    std::string equal = "-";                  // "yes"/"no": every frame's windows as the first run's and the CPU's
};

std::vector<int> int_list(const std::string& option, const std::string& text) {
    std::vector<int> out;
    for (const std::string& item : split(text, ',')) {
        out.push_back(cli::parse_int(option, item));
        if (out.back() < 1) throw cli::UsageError(option, "'" + item + "' must be at least 1");
    }
    if (out.empty()) throw cli::UsageError(option, "empty list");
    return out;
}

void set_option(ThroughputOptions& o, const std::string& a, const std::string& v) {
    const auto at_least = [&](int& field, int least) {
        field = cli::parse_int(a, v);
        if (field < least) throw cli::UsageError(a, "must be at least " + std::to_string(least));
    };
    if (a == "--data") o.data = v;
    else if (a == "--json") o.json = v;
    else if (a == "--markdown") o.markdown = v;
    else if (a == "--date") o.date = v;
    else if (a == "--in-flight") o.in_flight = int_list(a, v);
    else if (a == "--devices") o.devices = cli::parse_device_list(a, v);
    else if (a == "--frames") at_least(o.frames, 1);
    else if (a == "--repeats") at_least(o.repeats, 1);
    else if (a == "--opencv-frames") at_least(o.opencv_frames, 1);
    else if (a == "--parity-frames") at_least(o.parity_frames, 0);
    else if (a == "--max-sources") at_least(o.max_sources, 0);
    else if (a == "--threads") at_least(o.threads, 0);
    else if (a == "--resolutions") {
        o.resolutions.clear();
        for (const std::string& r : split(v, ',')) o.resolutions.push_back(cli::size_text(cli::parse_size(a, r)));
    } else if (a == "--families") {
        o.families = split(v, ',');
        for (const std::string& f : o.families)
            if (f != "lbp" && f != "hog" && f != "haar")
                throw cli::UsageError(a, "unknown family '" + f + "' (lbp, hog, haar)");
    } else {
        throw cli::UsageError(a, "unknown option (--help lists them)");
    }
}

ThroughputOptions parse(int argc, char** argv) {
    ThroughputOptions o;
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
        if (i + 1 >= argc) throw cli::UsageError(a, "needs a value");
        set_option(o, a, argv[++i]);
    }
    return o;
}

using Windows = std::vector<std::vector<Detection>>;

// `count` frames cycling through `frames`, the pipeline kept full; `check(i, windows)` sees frame i's windows
// in order. Returns the seconds from the first submit to the last take().
template <class Check>
double run_frames(gpu::FramePipeline& pipeline, const std::vector<cv::Mat>& frames, int count, Check check) {
    const auto start = std::chrono::steady_clock::now();
    int submitted = 0;
    for (int taken = 0; taken < count; ++taken) {
        while (submitted < count && pipeline.in_flight() < pipeline.capacity())
            pipeline.submit(view_of(frames[static_cast<std::size_t>(submitted++) % frames.size()]));
        check(static_cast<std::size_t>(taken) % frames.size(), pipeline.take());
    }
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::string devices_text(const std::vector<int>& devices) {
    std::string t;
    for (int d : devices) t += (t.empty() ? "" : ",") + std::to_string(d);
    return t;
}

// One GPU row. `first` holds every frame's windows of the first run (filled by it); `cpu` the CPU reference's
// for the first frames.
ThroughputRow gpu_row(BenchFamily& family, const FamilyRun& run, const std::vector<cv::Mat>& frames,
                      const std::vector<int>& devices, int in_flight, const ThroughputOptions& o, Windows& first,
                      const Windows& cpu) {
    gpu::FramePipeline pipeline([&] { return family.make_detector(run.config, run.scale, false); }, devices,
                                in_flight);
    bool equal = true;
    const auto check = [&](std::size_t i, const std::vector<Detection>& w) {
        if (first.size() <= i) first.resize(i + 1);  // the first run's first pass fills it
        if (first[i].empty() && !w.empty()) first[i] = w;
        equal = equal && equal_windows(w, first[i]) && (i >= cpu.size() || equal_windows(w, cpu[i]));
    };
    const int settle = static_cast<int>(gpu::concrete_compactions().size()) * gpu::GpuOptions{}.auto_frames + 2;
    run_frames(pipeline, frames, std::max<int>(settle * pipeline.capacity(), static_cast<int>(frames.size())), check);
    std::vector<double> fps;
    for (int r = 0; r < o.repeats; ++r) fps.push_back(o.frames / run_frames(pipeline, frames, o.frames, check));
    ThroughputRow row;
    row.family = run.name;
    row.detector = family.detector_name(run.config.mode) + ":" + gpu::to_string(pipeline.detector(0).chosen_compaction());
    row.rule = family.rule_text(run.config.stride, run.scale);
    row.devices = devices_text(devices);
    row.in_flight = in_flight;
    row.fps = percentile(fps, 0.5);
    row.equal = equal ? "yes" : "no";
    return row;
}

BenchOptions family_defaults(const std::string& family) {
    return family == "haar" ? haar_defaults() : family == "hog" ? hog_defaults() : lbp_defaults();
}

void family_rows(const FamilyRun& run, const ThroughputOptions& o, const std::vector<std::string>& sources,
                 const std::vector<std::vector<int>>& device_sets, std::vector<ThroughputRow>& rows) {
    BenchOptions bo = family_defaults(run.name);
    bo.data = o.data;
    bo.opencv = o.opencv;
    bo.opencv_frames = o.opencv_frames;
    const std::unique_ptr<BenchFamily> family = std::string(run.name) == "lbp"   ? make_lbp_family(bo)
                                                : std::string(run.name) == "hog" ? make_hog_family(bo)
                                                                                 : make_haar_family(bo);
    for (const std::string& res : o.resolutions) {
        const Size size = cli::parse_size("--resolutions", res);
        const std::vector<cv::Mat> frames = load_bench_frames(sources, cv::Size(size.width, size.height));
        double opencv_fps = 0;
        if (o.opencv && family->opencv_available()) {
            const BenchRow r = family->time_opencv(frames, res, run.scale, run.config.stride);
            opencv_fps = 1e3 / r.median_ms;
            rows.push_back({res, run.name, r.detector + " (all cores)", r.rule, "cpu", 0, opencv_fps, 1.0, 0, "-"});
        }
        Windows first, cpu;
        for (int i = 0; i < o.parity_frames && i < static_cast<int>(frames.size()); ++i)
            cpu.push_back(family->cpu_windows(frames[static_cast<std::size_t>(i)], run.config.stride, run.scale));
        std::map<int, double> one_device;  // frames in flight -> fps on the first device set
        for (const auto& devices : device_sets)
            for (int n : o.in_flight) {
                ThroughputRow row = gpu_row(*family, run, frames, devices, n, o, first, cpu);
                row.resolution = res;
                row.vs_opencv = opencv_fps > 0 ? row.fps / opencv_fps : 0;
                if (!one_device.count(n)) one_device[n] = row.fps;
                row.vs_one_device = device_sets.size() > 1 ? row.fps / one_device[n] : 0;
                std::cerr << "  " << res << " " << row.detector << " " << row.rule << " devices " << row.devices
                          << ", " << n << " in flight: " << row.fps << " frames/s, equal " << row.equal << "\n";
                rows.push_back(row);
            }
    }
}

std::string fixed(double v, int digits) {
    std::ostringstream s;
    s.setf(std::ios::fixed);
    s.precision(digits);
    s << v;
    return s.str();
}

void write_markdown(std::ostream& out, const std::string& context, const std::vector<ThroughputRow>& rows) {
    out << context << "\n\n"
        << "| resolution | family | detector | rule | devices | in flight | frames/s | ms/frame | vs OpenCV CPU "
           "| vs first device | windows equal |\n|---|---|---|---|---|---|---|---|---|---|---|\n";
    for (const ThroughputRow& r : rows)
        out << "| " << r.resolution << " | " << r.family << " | " << r.detector << " | " << r.rule << " | "
            << r.devices << " | " << (r.in_flight > 0 ? std::to_string(r.in_flight) : "-") << " | " << fixed(r.fps, 1)
            << " | " << fixed(1e3 / r.fps, 3) << " | " << (r.vs_opencv > 0 ? fixed(r.vs_opencv, 1) + "x" : "-")
            << " | " << (r.vs_one_device > 0 ? fixed(r.vs_one_device, 2) + "x" : "-") << " | " << r.equal << " |\n";
}

void write_json(std::ostream& out, const std::string& context, const std::vector<ThroughputRow>& rows) {
    out << "{\"context\": \"" << context << "\", \"rows\": [";
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const ThroughputRow& r = rows[i];
        out << (i ? ",\n" : "\n") << "{\"resolution\": \"" << r.resolution << "\", \"family\": \"" << r.family
            << "\", \"detector\": \"" << r.detector << "\", \"rule\": \"" << r.rule << "\", \"devices\": \""
            << r.devices << "\", \"in_flight\": " << r.in_flight << ", \"fps\": " << fixed(r.fps, 2)
            << ", \"equal\": \"" << r.equal << "\"}";
    }
    out << "\n]}\n";
}

}  // namespace

int run_throughput_bench(int argc, char** argv) {
    const ThroughputOptions o = parse(argc, argv);
    const std::vector<std::string> sources = bench_frame_sources(o.data, o.max_sources);
    const int count = gpu::gpu_count();
    if (count == 0) {
        std::cout << "SKIP: no CUDA device: no throughput rows\n";
        return 0;
    }
    const std::vector<int> devices = cli::resolve_devices("--devices", o.devices, count);
    std::vector<std::vector<int>> device_sets = {{devices.front()}};
    if (devices.size() > 1) device_sets.push_back(devices);
    const int threads = o.threads > 0 ? o.threads : cv::getNumberOfCPUs();
    cv::setNumThreads(threads);
    std::string context = o.date.empty() ? today() : o.date;
    for (int d = 0; d < count; ++d) context += ", " + gpu::gpu_name(d);
    context += ", OpenCV on " + std::to_string(threads) + " threads, " + std::to_string(sources.size()) + " frames";
    std::vector<ThroughputRow> rows;
    for (const FamilyRun& run : kRuns)
        if (std::find(o.families.begin(), o.families.end(), run.name) != o.families.end())
            family_rows(run, o, sources, device_sets, rows);
    std::ostringstream md;
    write_markdown(md, context, rows);
    if (!o.markdown.empty()) std::ofstream(o.markdown) << md.str();
    if (!o.json.empty()) {
        std::ofstream f(o.json);
        write_json(f, context, rows);
    }
    std::cout << md.str();
    const bool equal = std::none_of(rows.begin(), rows.end(), [](const ThroughputRow& r) { return r.equal == "no"; });
    if (!equal) std::cout << "FAIL: a run's windows differ from the first run's or the CPU reference\n";
    return equal ? 0 : 1;
}

}  // namespace cascade::bench
