#include "bench/gpu/bench_report.hpp"

#include <iomanip>
#include <sstream>

namespace cascade::bench {

namespace {

std::string quoted(const std::string& s) {
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    return out + "\"";
}

std::string fixed(double v, int digits) {
    std::ostringstream s;
    s << std::fixed << std::setprecision(digits) << v;
    return s.str();
}

template <class T, class F>
std::string json_list(const std::vector<T>& v, F&& item) {
    std::string out = "[";
    for (std::size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + item(v[i]);
    return out + "]";
}

std::string survivors_text(const BenchRow& r) {
    std::string out;
    for (std::size_t i = 0; i < r.survivors.size() && i < r.points_weak.size(); ++i) {
        if (!out.empty()) out += " ";
        out += std::to_string(r.points_weak[i]) + ":" + (r.survivors[i] < 0 ? std::string("-") : fixed(100 * r.survivors[i], 2) + "%");
    }
    return out.empty() ? "-" : out;
}

}  // namespace

void write_json(std::ostream& out, const BenchContext& c, const std::vector<BenchRow>& rows) {
    out << "{\n  \"device\": " << quoted(c.device) << ",\n  \"model\": " << quoted(c.model) << ",\n  \"date\": "
        << quoted(c.date) << ",\n  \"cpu_threads\": " << c.cpu_threads << ",\n  \"scale_factor\": " << c.scale_factor
        << ",\n  \"min_size\": " << c.min_size << ",\n  \"rows\": [\n";
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const BenchRow& r = rows[i];
        out << "    {\"resolution\": " << quoted(r.resolution) << ", \"detector\": " << quoted(r.detector)
            << ", \"strategy\": " << quoted(r.strategy) << ", \"rule\": " << quoted(r.rule) << ", \"frames\": " << r.frames
            << ", \"median_ms\": " << fixed(r.median_ms, 4) << ", \"p90_ms\": " << fixed(r.p90_ms, 4)
            << ", \"median_call_ms\": " << fixed(r.median_call_ms, 4) << ", \"upload_ms\": " << fixed(r.upload_ms, 4)
            << ", \"pyramid_ms\": " << fixed(r.pyramid_ms, 4) << ", \"cascade_ms\": " << fixed(r.cascade_ms, 4)
            << ", \"download_ms\": " << fixed(r.download_ms, 4) << ", \"windows\": " << fixed(r.windows, 0)
            << ", \"windows_per_s\": " << fixed(r.windows_per_s, 0)
            << ", \"points_weak\": " << json_list(r.points_weak, [](int v) { return std::to_string(v); })
            << ", \"survivors\": " << json_list(r.survivors, [](double v) { return fixed(v, 6); })
            << ", \"speedup_vs_opencv\": " << fixed(r.speedup, 2) << ", \"parity\": " << quoted(r.parity)
            << ", \"kernels\": " << json_list(r.kernels, [](const gpu::KernelTime& k) {
                   return "{\"name\": " + quoted(k.name) + ", \"ms\": " + fixed(k.ms, 4) + "}";
               })
            << "}" << (i + 1 < rows.size() ? "," : "") << "\n";
    }
    out << "  ]\n}\n";
}

void write_markdown(std::ostream& out, const BenchContext& c, const std::vector<BenchRow>& rows) {
    out << "Device: " << c.device << "; model: " << c.model << "; ";
    if (c.scale_factor > 0)
        out << "scale factor " << c.scale_factor << ", minimum " << c.min_size << " px";
    else
        out << "stride and scale step per row (rule sN xF: stride N, scale step F)";
    out << "; OpenCV on " << c.cpu_threads << " threads; " << c.date << ".\n\n";
    out << "| resolution | detector | strategy | rule | median ms | p90 ms | detect() ms | pyramid ms | cascade ms | "
           "Mwindows/s | survivors after weak learners | x OpenCV | parity |\n";
    out << "|---|---|---|---|---:|---:|---:|---:|---:|---:|---|---:|---|\n";
    for (const BenchRow& r : rows) {
        const bool opencv = r.detector.rfind("opencv", 0) == 0;  // CPU rows have no device times
        out << "| " << r.resolution << " | " << r.detector << " | " << r.strategy << " | " << r.rule << " | "
            << fixed(r.median_ms, 3) << " | " << fixed(r.p90_ms, 3) << " | " << fixed(r.median_call_ms, 3) << " | "
            << (opencv ? "-" : fixed(r.pyramid_ms, 3)) << " | " << (opencv ? "-" : fixed(r.cascade_ms, 3)) << " | "
            << (r.windows_per_s > 0 ? fixed(r.windows_per_s / 1e6, 0) : "-") << " | " << survivors_text(r) << " | "
            << fixed(r.speedup, 1) << " | " << r.parity << " |\n";
    }
    bool any = false;
    for (const BenchRow& r : rows)
        if (!r.kernels.empty()) {
            if (!any) out << "\nKernel times (median ms per frame, CUDA events around each launch):\n\n";
            any = true;
            out << "- " << r.resolution << " " << r.detector << " " << r.strategy << " (" << r.rule << "):";
            for (const auto& k : r.kernels) out << " " << k.name << " " << fixed(k.ms, 3) << ";";
            out << "\n";
        }
}

void write_summary(std::ostream& out, const std::vector<BenchRow>& rows) {
    out << std::left << std::setw(11) << "resolution" << std::setw(13) << "detector" << std::setw(25) << "strategy"
        << std::setw(10) << "rule" << std::right << std::setw(10) << "median ms" << std::setw(10) << "x OpenCV"
        << "  parity\n";
    for (const BenchRow& r : rows)
        out << std::left << std::setw(11) << r.resolution << std::setw(13) << r.detector << std::setw(25) << r.strategy
            << std::setw(10) << r.rule << std::right << std::setw(10) << fixed(r.median_ms, 3) << std::setw(10)
            << fixed(r.speedup, 1) << "  " << r.parity << "\n";
}

}  // namespace cascade::bench
