#include "detect/outputs.hpp"

#include <cstdio>
#include <iostream>
#include <sstream>

#include "cli/json.hpp"
#include "common/atomic_file.hpp"
#include "common/error.hpp"

namespace cascade::detect {

using cli::json_quoted;

namespace {

std::string csv_field(const std::string& text) {
    if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
    std::string out = "\"";
    for (const char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

}  // namespace

std::string json_number(double value, int digits) {
    char text[40];
    std::snprintf(text, sizeof text, "%.*g", digits, value);
    return text;
}

std::string json_size(Size size) {
    if (size.width == 0 && size.height == 0) return "null";
    return "{\"width\": " + std::to_string(size.width) + ", \"height\": " + std::to_string(size.height) + "}";
}

std::string format_json(const Report& report) {
    std::ostringstream out;
    out << "{";
    for (const JsonMember& member : report.header)
        out << "\n  " << json_quoted(member.first) << ": " << member.second << ",";
    out << "\n  \"files\": [";
    for (std::size_t i = 0; i < report.files.size(); ++i)
        out << (i ? ",\n    " : "\n    ") << json_quoted(report.files[i]);
    out << (report.files.empty() ? "]" : "\n  ]") << ",\n  \"skipped\": [";
    for (std::size_t i = 0; i < report.skipped.size(); ++i)
        out << (i ? ",\n    " : "\n    ") << "{\"file\": " << json_quoted(report.skipped[i].file)
            << ", \"reason\": " << json_quoted(report.skipped[i].reason) << "}";
    out << (report.skipped.empty() ? "]" : "\n  ]") << ",\n  \"detections\": [";
    for (std::size_t i = 0; i < report.records.size(); ++i) {
        const Record& r = report.records[i];
        const Rect& box = r.detection.rect;
        out << (i ? ",\n    " : "\n    ") << "{\"file\": " << json_quoted(r.file) << ", \"frame\": " << r.frame
            << ", \"x\": " << box.x << ", \"y\": " << box.y << ", \"w\": " << box.width << ", \"h\": " << box.height
            << ", \"score\": " << json_number(r.detection.score, 9) << "}";
    }
    out << (report.records.empty() ? "]" : "\n  ]") << ",\n  \"frames\": " << report.frames
        << ",\n  \"seconds\": " << json_number(report.seconds, 6) << "\n}\n";
    return out.str();
}

std::string format_csv(const Report& report) {
    std::ostringstream out;
    out << "file,frame,x,y,w,h,score\n";
    for (const Record& r : report.records) {
        const Rect& box = r.detection.rect;
        out << csv_field(r.file) << ',' << r.frame << ',' << box.x << ',' << box.y << ',' << box.width << ','
            << box.height << ',' << json_number(r.detection.score, 9) << '\n';
    }
    return out.str();
}

void write_report(const Report& report, const RunOptions& options) {
    const std::string text = options.format == Format::csv ? format_csv(report) : format_json(report);
    if (!options.output.empty()) {
        write_file_atomically(options.output, text);
        return;
    }
    std::cout << text << std::flush;
    if (!std::cout) throw InputError("stdout", "cannot write the detections");
}

}  // namespace cascade::detect
