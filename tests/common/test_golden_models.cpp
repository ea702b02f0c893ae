// Golden tests: every shipped model (models/*.xml) and OpenCV's LBP frontal-face cascade, run by the CPU
// reference detectors on fixed real frames (opencv-doc's vtest.avi and messi5.jpg), give exactly the raw
// windows and scores recorded in tests/common/golden/<model>.txt. The CPU detectors are the oracle of the GPU
// tests, so any change to a family's arithmetic (resize, integral images, LBP codes, gradients, block
// normalisation, stage sums) must show here as a changed score or window, not only in a comparison of the
// CPU with itself. For HoG the count of windows each stage rejected is recorded too.
//
// After an intended change (a new model, new arithmetic), re-record with tools/record-golden and review the
// diff of tests/common/golden/ like code.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include "common/cov_cpu_detector.hpp"
#include "common/hog_cpu_detector.hpp"
#include "common/lbp_cpu_detector.hpp"
#include "common/model_io.hpp"
#include "tests/support/sanitized.hpp"
#include "tests/support/test_data.hpp"

namespace fs = std::filesystem;
using namespace cascade;

namespace {

const char* const kSamples = "/usr/share/doc/opencv-doc/examples/data/";

// Frames of a street video (pedestrians) and a photograph (faces, people). Under the sanitizers (20-40x slower:
// 221 s on CI's 2 cores for all four) the photograph alone, checked against its part of the recorded text.
std::vector<test::ImageSource> golden_frames() {
    const std::string video = std::string(kSamples) + "vtest.avi";
    std::vector<test::ImageSource> frames{{"vtest.avi#0", video, 0},
                                          {"vtest.avi#300", video, 300},
                                          {"vtest.avi#600", video, 600},
                                          {"messi5.jpg", std::string(kSamples) + "messi5.jpg", -1}};
    if (test::kSanitized) frames.erase(frames.begin(), frames.begin() + 3);
    return frames;
}

struct GoldenModel {
    std::string path;  // the model file
    std::string name;  // its golden file's stem
};

std::vector<GoldenModel> golden_models() {
    std::vector<GoldenModel> out;
    for (const auto& entry : fs::directory_iterator(fs::path(CASCADE_SOURCE_DIR) / "models"))
        if (entry.path().extension() == ".xml") out.push_back({entry.path().string(), entry.path().stem().string()});
    std::sort(out.begin(), out.end(), [](const GoldenModel& a, const GoldenModel& b) { return a.name < b.name; });
    out.push_back({"/usr/share/opencv4/lbpcascades/lbpcascade_frontalface.xml", "opencv_lbpcascade_frontalface"});
    return out;
}

std::string golden_path(const GoldenModel& m) {
    return (fs::path(CASCADE_SOURCE_DIR) / "tests" / "common" / "golden" / (m.name + ".txt")).string();
}

// The scans the toolkit runs these families with: HoG and region covariance sparse (stride 8: covariance
// windows sit on their grid) at scale step 1.05, LBP with OpenCV's rule at 1.1.
ScanParams scan_for(const Model& model) {
    ScanParams scan;
    const bool hog = std::holds_alternative<HogCascade>(model.cascade) || std::holds_alternative<CovCascade>(model.cascade);
    scan.pyramid.scale_factor = hog ? 1.05 : 1.1;
    scan.rule.stride = hog ? kHogSparseStride : 0;
    return scan;
}

// FNV-1a (64 bits) of `bytes`, as 16 hex digits.
std::string fnv1a_hex(const std::string& bytes) {
    std::uint64_t h = 0xcbf29ce484222325ull;
    for (const char c : bytes) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ull;
    char text[20];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(h));
    return text;
}

// The pixels' hash tells a decoder that gives other frames apart from changed arithmetic.
std::string pixel_hash(const cv::Mat& gray) {
    std::string pixels;
    for (int y = 0; y < gray.rows; ++y) pixels.append(gray.ptr<char>(y), static_cast<std::size_t>(gray.cols));
    return fnv1a_hex(pixels);
}

// Scores with nine significant digits: a float prints and reads back to the same bits.
std::string window_line(const Detection& d) {
    char line[96];
    std::snprintf(line, sizeof line, "%d %d %d %d %.9g", d.rect.x, d.rect.y, d.rect.width, d.rect.height,
                  static_cast<double>(d.score));
    return line;
}

// Windows listed per frame: the highest scores. The hash covers all of them, so that the file stays short
// for models that accept thousands of windows and still pins every window and score.
constexpr std::size_t kListed = 20;

void write_windows(std::vector<Detection> windows, std::ostream& out) {
    std::string all;
    for (const Detection& d : windows) all += window_line(d) + "\n";
    out << windows.size() << " windows, hash " << fnv1a_hex(all) << "; the " << std::min(kListed, windows.size())
        << " highest scores (x y w h score):\n";
    std::stable_sort(windows.begin(), windows.end(),
                     [](const Detection& a, const Detection& b) { return a.score > b.score; });
    windows.resize(std::min(kListed, windows.size()));
    for (const Detection& d : windows) out << window_line(d) << "\n";
}

// The golden text of one model: a header, then per frame its pixels' hash, the HoG stage counts and the
// raw windows (their count and hash in detect_windows' order, the highest scores listed).
std::string golden_text(const GoldenModel& m) {
    const Model model = load_model(m.path);
    const ScanParams scan = scan_for(model);
    std::ostringstream out;
    out << "# Raw windows of " << fs::path(m.path).filename().string() << " (CPU reference detector), scale step "
        << scan.pyramid.scale_factor << ", stride " << scan.rule.stride << " (0: OpenCV's rule).\n"
        << "# Written by tools/record-golden; checked by tests/common/test_golden_models.cpp.\n";
    for (const test::ImageSource& frame : golden_frames()) {
        const cv::Mat gray = test::load_gray(frame);
        const GrayView view{gray.data, gray.cols, gray.rows, static_cast<int>(gray.step)};
        out << "frame " << frame.label << " " << gray.cols << "x" << gray.rows << " pixels " << pixel_hash(gray)
            << "\n";
        std::vector<Detection> windows;
        if (const auto* hog = std::get_if<HogCascade>(&model.cascade)) {
            ScanStats stats;
            windows = detect_windows(*hog, view, scan, &stats);
            out << "rejected per stage";
            for (const std::int64_t n : stats.rejected_at) out << " " << n;
            out << "\n";
        } else if (const auto* cov = std::get_if<CovCascade>(&model.cascade)) {
            windows = detect_windows(*cov, view, scan);
        } else {
            windows = detect_windows(std::get<LbpCascade>(model.cascade), view, scan);
        }
        write_windows(windows, out);
    }
    return out.str();
}

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

// The first line where two texts differ, as "line N: recorded '...', now '...'"; "" when they are equal.
std::string first_difference(const std::string& recorded, const std::string& now) {
    const std::vector<std::string> a = lines_of(recorded), b = lines_of(now);
    for (std::size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
        const std::string x = i < a.size() ? a[i] : "(end)", y = i < b.size() ? b[i] : "(end)";
        if (x != y) return "line " + std::to_string(i + 1) + ": recorded '" + x + "', now '" + y + "'";
    }
    return "";
}

// `recorded` without the blocks of frames this build does not scan: a block runs from its "frame <label> ..."
// line to the next such line; the header's comment lines are kept.
std::string recorded_part(const std::string& recorded) {
    std::vector<std::string> labels;
    for (const test::ImageSource& frame : golden_frames()) labels.push_back("frame " + frame.label + " ");
    std::string part;
    bool keep = true;
    for (const std::string& line : lines_of(recorded)) {
        if (line.rfind("frame ", 0) == 0)
            keep = std::any_of(labels.begin(), labels.end(), [&](const std::string& l) { return line.rfind(l, 0) == 0; });
        if (keep) part += line + "\n";
    }
    return part;
}

bool have_inputs(const GoldenModel& m) {
    if (!test::system_file(m.path)) return false;
    for (const test::ImageSource& frame : golden_frames())
        if (!test::system_file(frame.path)) return false;
    return true;
}

}  // namespace

TEST_CASE("golden: the CPU detectors give every model's recorded windows and scores on real frames") {
    const bool record = std::getenv("CASCADE_RECORD_GOLDEN") != nullptr;
    REQUIRE_MESSAGE(!(record && test::kSanitized), "record the golden files with a plain build (tools/record-golden)");
    for (const GoldenModel& m : golden_models()) {
        CAPTURE(m.path);
        if (!have_inputs(m)) continue;  // system_file printed the SKIP line
        const std::string now = golden_text(m);
        if (record) {
            std::ofstream(golden_path(m)) << now;
            MESSAGE("recorded " << golden_path(m));
            continue;
        }
        std::ifstream in(golden_path(m));
        REQUIRE_MESSAGE(in.good(), golden_path(m) << " is missing: record it with tools/record-golden");
        const std::string recorded((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        const std::string difference = first_difference(recorded_part(recorded), now);
        CHECK_MESSAGE(difference.empty(), m.name << ": " << difference
                                                 << " (an intended change? re-record with tools/record-golden)");
    }
}
