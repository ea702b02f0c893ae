#include "bench/eval/curve_plot.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "cli/number_text.hpp"
#include "common/atomic_file.hpp"
#include "common/error.hpp"

namespace cascade::eval {

namespace {

constexpr int kWidth = 900, kHeight = 640, kLeft = 80, kRight = 24, kTop = 44, kBottom = 64;
const cv::Scalar kBlack(0, 0, 0), kGrid(225, 225, 225);
const cv::Scalar kColours[] = {{200, 80, 0},  {0, 0, 210},   {0, 150, 0},  {0, 140, 230},
                               {160, 0, 160}, {120, 120, 0}, {80, 80, 80}, {0, 90, 160}};

struct Axes {
    double x_min, x_max, y_min, y_max;
    cv::Rect area{kLeft, kTop, kWidth - kLeft - kRight, kHeight - kTop - kBottom};

    cv::Point2d at(double x, double y) const {
        x = std::clamp(x, x_min, x_max * 10);  // 0 false positives: on the left edge
        y = std::clamp(y, y_min / 10, y_max);
        const double u = (std::log10(x) - std::log10(x_min)) / (std::log10(x_max) - std::log10(x_min));
        const double v = (std::log10(y_max) - std::log10(y)) / (std::log10(y_max) - std::log10(y_min));
        return {area.x + u * area.width, area.y + v * area.height};
    }
};

std::string legend_text(Protocol protocol, const ModelResult& m) {
    if (protocol == Protocol::image) return m.label + "  (log-average MR " + cli::percent_text(m.log_average_miss_rate) + ")";
    char work[48] = "";
    if (!m.work_unit.empty()) std::snprintf(work, sizeof work, ", %.3g %s/window", m.work_per_window, m.work_unit.c_str());
    for (const auto& [budget, miss] : m.miss_rate_at)
        if (budget == 1e-4) return m.label + "  (MR " + cli::percent_text(miss) + " at 1e-4 FPPW" + work + ")";
    return m.label;
}

void draw_text(cv::Mat& canvas, const std::string& text, cv::Point at, double scale = 0.5, int thickness = 1) {
    cv::putText(canvas, text, at, cv::FONT_HERSHEY_SIMPLEX, scale, kBlack, thickness, cv::LINE_AA);
}

void draw_axes(cv::Mat& canvas, const Axes& axes, Protocol protocol) {
    for (double x = axes.x_min; x <= axes.x_max * 1.0001; x *= 10) {
        const cv::Point2d p = axes.at(x, axes.y_min);
        cv::line(canvas, cv::Point2d(p.x, axes.area.y), p, kGrid);
        char label[16];
        std::snprintf(label, sizeof label, "1e%d", static_cast<int>(std::lround(std::log10(x))));
        draw_text(canvas, label, cv::Point(static_cast<int>(p.x) - 14, axes.area.br().y + 20));
    }
    for (const double y : {0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5, 0.64, 0.8, 1.0}) {
        if (y < axes.y_min * 0.999) continue;
        const cv::Point2d p = axes.at(axes.x_min, y);
        cv::line(canvas, p, cv::Point2d(axes.area.br().x, p.y), kGrid);
        char label[16];
        std::snprintf(label, sizeof label, "%.2f", y);
        draw_text(canvas, label, cv::Point(kLeft - 44, static_cast<int>(p.y) + 5));
    }
    cv::rectangle(canvas, axes.area, kBlack);
    draw_text(canvas,
              protocol == Protocol::window ? "false positives per window (FPPW)" : "false positives per image (FPPI)",
              cv::Point(kLeft + axes.area.width / 2 - 140, kHeight - 18), 0.55);
    draw_text(canvas, "miss rate", cv::Point(8, kTop - 12), 0.55);
    draw_text(canvas,
              protocol == Protocol::window ? "Per-window DET (cascade-eval window)"
                                           : "Per-image miss rate (cascade-eval image)",
              cv::Point(kLeft + 180, 26), 0.6, 1);
}

// A staircase: the miss rate holds until the next point's false-positive rate, then drops.
void draw_curve(cv::Mat& canvas, const Axes& axes, const std::vector<CurvePoint>& curve, const cv::Scalar& colour) {
    std::vector<cv::Point> line;
    for (std::size_t i = 0; i < curve.size(); ++i) {
        if (i > 0) line.push_back(axes.at(curve[i].false_positives, curve[i - 1].miss_rate));
        line.push_back(axes.at(curve[i].false_positives, curve[i].miss_rate));
    }
    if (line.empty()) return;
    cv::Mat plot = canvas(axes.area);  // drawing in the plot area clips to it
    for (cv::Point& p : line) p -= axes.area.tl();
    cv::polylines(plot, line, false, colour, 2, cv::LINE_AA);
}

}  // namespace

void write_plot(const EvalResult& result, const std::string& path) {
    const Axes axes = result.protocol == Protocol::window ? Axes{1e-6, 1e-1, 0.01, 1.0} : Axes{1e-3, 10.0, 0.02, 1.0};
    cv::Mat canvas(kHeight, kWidth, CV_8UC3, cv::Scalar(255, 255, 255));
    draw_axes(canvas, axes, result.protocol);
    const int colours = static_cast<int>(std::size(kColours));
    for (std::size_t i = 0; i < result.models.size(); ++i) {
        const cv::Scalar& colour = kColours[i % static_cast<std::size_t>(colours)];
        draw_curve(canvas, axes, result.models[i].curve, colour);
        const cv::Point at(axes.area.x + 14,
                           axes.area.br().y - 16 - 22 * static_cast<int>(result.models.size() - 1 - i));
        cv::line(canvas, at + cv::Point(0, -5), at + cv::Point(28, -5), colour, 3, cv::LINE_AA);
        draw_text(canvas, legend_text(result.protocol, result.models[i]), at + cv::Point(36, 0));
    }
    std::vector<uchar> png;
    if (!cv::imencode(".png", canvas, png)) throw InputError(path, "cannot encode the plot as PNG");
    write_file_atomically(path, std::string(png.begin(), png.end()));
}

}  // namespace cascade::eval
