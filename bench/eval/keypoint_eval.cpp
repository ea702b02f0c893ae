#include "bench/eval/keypoint_eval.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <tuple>
#include <opencv2/features2d.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "bench/eval/keypoint_plot.hpp"
#include "bench/eval/keypoint_transforms.hpp"
#include "cli/json.hpp"
#include "cli/usage_error.hpp"
#include "cli/values.hpp"
#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "common/foagdd_cpu.hpp"

namespace cascade::eval {

namespace {

const char* const kUsage =
    "usage: cascade-eval keypoints [--image FILE]... [--max-side N] [--eps PIXELS] [--threads N]\n"
    "  [--output FILE.json] [--plot FILE.png]\n"
    "  default images: opencv-doc's building.jpg, blox.jpg, box_in_scene.png, graf1.png, fruits.jpg\n";

struct KeypointEvalOptions {
    std::vector<std::string> images;
    int max_side = 320, threads = 0;
    double eps = 2.0;
    std::string output, plot;
};

// nullopt after printing the usage for --help.
std::optional<KeypointEvalOptions> parse(int argc, char** argv) {
    KeypointEvalOptions o;
    for (int i = 1; i < argc; ++i) {
        const std::string key = argv[i];
        if (key == "--help" || key == "-h") {
            std::cout << kUsage;
            return std::nullopt;
        }
        if (i + 1 >= argc) throw cli::UsageError(key, "needs a value");
        const std::string value = argv[++i];
        if (key == "--image") o.images.push_back(value);
        else if (key == "--max-side") o.max_side = cli::parse_int(key, value);
        else if (key == "--threads") o.threads = cli::parse_int(key, value);
        else if (key == "--eps") o.eps = cli::parse_real(key, value);
        else if (key == "--output") o.output = value;
        else if (key == "--plot") o.plot = value;
        else throw cli::UsageError(key, "unknown option (cascade-eval keypoints --help)");
    }
    if (o.max_side < 64) throw cli::UsageError("--max-side", "must be >= 64");
    if (!(o.eps > 0 && o.eps <= 20)) throw cli::UsageError("--eps", "must be in (0, 20]");
    cli::check_threads("--threads", o.threads);
    if (o.images.empty())
        for (const char* name : {"building.jpg", "blox.jpg", "box_in_scene.png", "graf1.png", "fruits.jpg"})
            o.images.push_back(std::string("/usr/share/doc/opencv-doc/examples/data/") + name);
    return o;
}

cv::Mat load(const std::string& path, int max_side) {
    if (!std::filesystem::is_regular_file(path)) throw InputError(path, "no such file");
    const cv::Mat colour = cv::imread(path, cv::IMREAD_COLOR);
    if (colour.empty()) throw InputError(path, "cannot be read as an image");
    cv::Mat grey;
    cv::cvtColor(colour, grey, cv::COLOR_BGR2GRAY);
    const double f = double(max_side) / std::max(grey.cols, grey.rows);
    if (f < 1) cv::resize(grey, grey, {}, f, f, cv::INTER_AREA);
    if (grey.cols < kFoagddMinSide * 4 || grey.rows < kFoagddMinSide * 4) throw InputError(path, "is under 64x64");
    return grey;
}

using Points = std::vector<cv::Point2f>;

Points detect(const std::string& detector, const cv::Mat& grey, int threads) {
    Points points;
    if (detector == "foagdd") {
        for (const Keypoint& p : foagdd_keypoints({grey.data, grey.cols, grey.rows, int(grey.step)}, kFoagddThreshold, threads))
            points.emplace_back(float(p.x), float(p.y));
    } else if (detector == "fast") {
        std::vector<cv::KeyPoint> kps;
        cv::FAST(grey, kps, 20, true);
        for (const auto& k : kps) points.push_back(k.pt);
    } else {  // harris, gftt: OpenCV's defaults for quality and spacing, every corner
        cv::goodFeaturesToTrack(grey, points, 0, 0.01, 5, cv::noArray(), 3, detector == "harris", 0.04);
    }
    return points;
}

bool inside(const cv::Point2f& p, cv::Size size) {
    return p.x >= 3 && p.y >= 3 && p.x <= float(size.width - 4) && p.y <= float(size.height - 4);
}

Points mapped(const Points& points, const cv::Matx33d& h) {
    Points out;
    for (const cv::Point2f& p : points) {
        const cv::Vec3d q = h * cv::Vec3d(p.x, p.y, 1);
        out.emplace_back(float(q[0] / q[2]), float(q[1] / q[2]));
    }
    return out;
}

// Repeatability and mean pair distance of `a` (original, mapped by h) and `b` (transformed).
Score compare(const Points& a, const Points& b, const cv::Matx33d& h, cv::Size size_a, cv::Size size_b, double eps) {
    Points common_a, common_b;
    for (const cv::Point2f& p : mapped(a, h))
        if (inside(p, size_b)) common_a.push_back(p);
    const Points back = mapped(b, h.inv());
    for (std::size_t i = 0; i < b.size(); ++i)
        if (inside(back[i], size_a)) common_b.push_back(b[i]);
    std::vector<std::tuple<double, int, int>> pairs;
    for (int i = 0; i < int(common_a.size()); ++i)
        for (int j = 0; j < int(common_b.size()); ++j) {
            const double d = cv::norm(common_a[i] - common_b[j]);
            if (d <= eps) pairs.emplace_back(d, i, j);
        }
    std::sort(pairs.begin(), pairs.end());
    std::vector<char> used_a(common_a.size()), used_b(common_b.size());
    Score s;
    double distance = 0;
    for (const auto& [d, i, j] : pairs) {
        if (used_a[i] || used_b[j]) continue;
        used_a[i] = used_b[j] = 1;
        ++s.pairs;
        distance += d;
    }
    const std::size_t fewer = std::min(common_a.size(), common_b.size());
    s.repeatability = fewer ? double(s.pairs) / double(fewer) : 0.0;
    s.error = s.pairs ? distance / s.pairs : 0.0;
    s.points = double(common_a.size() + common_b.size()) / 2;
    return s;
}

std::string json_of(const std::vector<Curve>& curves, const KeypointEvalOptions& o) {
    std::ostringstream out;
    out << "{\n  \"protocol\": \"repeatability\",\n  \"eps\": " << o.eps << ",\n  \"max_side\": " << o.max_side
        << ",\n  \"images\": [";
    for (std::size_t i = 0; i < o.images.size(); ++i) out << (i ? ", " : "") << cli::json_quoted(o.images[i]);
    out << "],\n  \"results\": [";
    bool first = true;
    for (const Curve& c : curves)
        for (const Score& s : c.scores) {
            out << (first ? "\n    " : ",\n    ") << "{\"detector\": " << cli::json_quoted(c.detector)
                << ", \"family\": " << cli::json_quoted(s.step.family) << ", \"step\": " << cli::json_quoted(s.step.label)
                << ", \"strength\": " << s.step.strength << ", \"repeatability\": " << s.repeatability
                << ", \"localisation_error\": " << s.error << ", \"points\": " << s.points << ", \"ms\": " << s.ms << "}";
            first = false;
        }
    out << "\n  ]\n}\n";
    return out.str();
}

}  // namespace

int run_keypoint_eval(int argc, char** argv) {
    const auto options = parse(argc, argv);
    if (!options) return 0;
    const KeypointEvalOptions& o = *options;
    std::vector<cv::Mat> images;
    for (const std::string& path : o.images) images.push_back(load(path, o.max_side));
    const std::vector<TransformStep> steps = transform_steps();
    std::vector<Curve> curves;
    for (const std::string detector : {"foagdd", "harris", "gftt", "fast"}) {
        // the originals' points once per detector, and its mean time per image
        std::vector<Points> originals;
        const auto start = std::chrono::steady_clock::now();
        for (const cv::Mat& grey : images) originals.push_back(detect(detector, grey, o.threads));
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count() /
                          double(images.size());
        Curve curve{detector, {}};
        for (const TransformStep& step : steps) {
            Score mean{step};
            mean.ms = ms;
            for (std::size_t i = 0; i < images.size(); ++i) {
                cv::Matx33d h;
                const cv::Mat warped = apply_transform(step, images[i], h);
                const Score s = compare(originals[i], detect(detector, warped, o.threads), h, images[i].size(),
                                        warped.size(), o.eps);
                mean.repeatability += s.repeatability / double(images.size());
                mean.error += s.error / double(images.size());
                mean.points += s.points / double(images.size());
            }
            curve.scores.push_back(mean);
        }
        std::cerr << detector << ": done\n";
        curves.push_back(curve);
    }
    const std::string json = json_of(curves, o);
    if (o.output.empty()) std::cout << json;
    else write_file_atomically(o.output, json);
    if (!o.plot.empty()) write_keypoint_plot(curves, o.plot);
    for (const Curve& c : curves) {
        std::map<std::string, std::pair<double, int>> family;
        for (const Score& s : c.scores) family[s.step.family].first += s.repeatability, ++family[s.step.family].second;
        std::cerr << c.detector << ":";
        for (const auto& [name, sum] : family) std::cerr << " " << name << " " << sum.first / sum.second;
        std::cerr << " (mean repeatability)\n";
    }
    return 0;
}

}  // namespace cascade::eval
