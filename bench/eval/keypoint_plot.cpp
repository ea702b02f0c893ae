#include "bench/eval/keypoint_plot.hpp"

#include <algorithm>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "common/atomic_file.hpp"
#include "common/error.hpp"

namespace cascade::eval {

namespace {

constexpr int kPanelW = 420, kPanelH = 300, kMargin = 46, kColumns = 3;
const cv::Scalar kBlack(0, 0, 0), kGrid(225, 225, 225);
const cv::Scalar kColours[] = {{0, 0, 210}, {200, 80, 0}, {0, 150, 0}, {0, 140, 230}};

void text(cv::Mat& image, const std::string& s, cv::Point at, double scale = 0.45) {
    cv::putText(image, s, at, cv::FONT_HERSHEY_SIMPLEX, scale, kBlack, 1, cv::LINE_AA);
}

void draw_panel(cv::Mat& image, cv::Rect panel, const std::string& family, const std::vector<Curve>& curves) {
    const cv::Rect area(panel.x + kMargin, panel.y + 28, panel.width - kMargin - 16, panel.height - 28 - 40);
    text(image, family, {panel.x + kMargin, panel.y + 18}, 0.55);
    for (int i = 0; i <= 4; ++i) {
        const int y = area.y + area.height - i * area.height / 4;
        cv::line(image, {area.x, y}, {area.x + area.width, y}, kGrid);
        text(image, std::to_string(i * 25) + "%", {panel.x + 6, y + 4}, 0.4);
    }
    cv::rectangle(image, area, kBlack);
    std::vector<const Score*> steps;
    for (const Score& s : curves.front().scores)
        if (s.step.family == family) steps.push_back(&s);
    const auto x_of = [&](std::size_t i) {
        return area.x + int((double(i) + 0.5) * area.width / double(steps.size()));
    };
    for (std::size_t i = 0; i < steps.size(); ++i)
        text(image, steps[i]->step.label, {x_of(i) - 24, area.y + area.height + 16}, 0.35);
    for (std::size_t c = 0; c < curves.size(); ++c) {
        std::vector<cv::Point> line;
        for (const Score& s : curves[c].scores)
            if (s.step.family == family)
                line.emplace_back(x_of(line.size()), area.y + area.height - int(s.repeatability * area.height));
        cv::polylines(image, line, false, kColours[c % 4], 2, cv::LINE_AA);
        for (const cv::Point& p : line) cv::circle(image, p, 3, kColours[c % 4], cv::FILLED, cv::LINE_AA);
    }
}

}  // namespace

void write_keypoint_plot(const std::vector<Curve>& curves, const std::string& path) {
    std::vector<std::string> families;
    for (const Score& s : curves.front().scores)
        if (std::find(families.begin(), families.end(), s.step.family) == families.end()) families.push_back(s.step.family);
    const int rows = int(families.size() + kColumns - 1) / kColumns;
    cv::Mat image(rows * kPanelH + 64, kColumns * kPanelW, CV_8UC3, cv::Scalar(255, 255, 255));
    for (std::size_t f = 0; f < families.size(); ++f)
        draw_panel(image, {int(f % kColumns) * kPanelW, int(f / kColumns) * kPanelH, kPanelW, kPanelH}, families[f], curves);
    for (std::size_t c = 0; c < curves.size(); ++c) {
        const cv::Point at(20 + int(c) * 200, rows * kPanelH + 24);
        cv::line(image, at, at + cv::Point(30, 0), kColours[c % 4], 3);
        text(image, curves[c].detector, at + cv::Point(38, 5), 0.5);
    }
    text(image, "repeatability: pairs within eps / fewer points in the common region", {20, rows * kPanelH + 52}, 0.45);
    std::vector<unsigned char> png;
    if (!cv::imencode(".png", image, png)) throw InputError(path, "cannot encode the plot");
    write_file_atomically(path, std::string(png.begin(), png.end()));
}

}  // namespace cascade::eval
