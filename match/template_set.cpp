#include "match/template_set.hpp"

#include <algorithm>
#include <cmath>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "common/error.hpp"
#include "match/cv_planes.hpp"
#include "match/peaks.hpp"
#include "match/score_map.hpp"

namespace cascade::match {

namespace {

cv::Mat read_template(const Options& options) {
    const std::string& path = options.template_path;
    const cv::Mat unchanged = cv::imread(path, cv::IMREAD_UNCHANGED);
    if (unchanged.empty()) throw InputError(path, "cannot read the template (missing, not an image, or corrupt)");
    const cv::Mat colour = cv::imread(path, cv::IMREAD_COLOR);
    if (unchanged.channels() > 1 && !options.grey) return colour;
    cv::Mat grey;
    cv::cvtColor(colour, grey, cv::COLOR_BGR2GRAY);
    return grey;
}

}  // namespace

TemplateSet::TemplateSet(const Options& options) : options_(options) {
    const cv::Mat original = read_template(options);
    size_ = {original.cols, original.rows};
    for (const double scale : options.scales) {
        const cv::Size size(static_cast<int>(std::lround(original.cols * scale)),
                            static_cast<int>(std::lround(original.rows * scale)));
        if (size.width < 1 || size.height < 1)
            throw InputError(options.template_path, "is smaller than 1x1 pixel at scale " + std::to_string(scale));
        cv::Mat resized = original;
        if (size != original.size())
            cv::resize(original, resized, size, 0, 0, scale < 1 ? cv::INTER_AREA : cv::INTER_LINEAR);
        templates_.push_back(resized);
    }
}


Size TemplateSet::largest() const {
    Size out;
    for (const cv::Mat& t : templates_) out = {std::max(out.width, t.cols), std::max(out.height, t.rows)};
    return out;
}

std::vector<Detection> TemplateSet::find(const cv::Mat& image) const {
    std::vector<cv::Mat> image_split, templ_split;
    const MatchPlanes image_planes = match_planes(image, image_split);
    const PeakRules rules{options_.top, options_.threshold, options_.nms_iou};
    std::vector<Detection> found;
    for (const cv::Mat& t : templates_) {
        const MatchPlanes templ = match_planes(t, templ_split);
        if (options_.exact) {
            for (const Position& p : exact_matches(image_planes, templ, options_.threads))
                found.push_back({{p.x, p.y, t.cols, t.rows}, 0.f});
            continue;
        }
        const ScoreMap map = score_map(image_planes, templ, options_.method, options_.threads);
        const std::vector<Detection> peaks = find_peaks(map, {t.cols, t.rows}, options_.method, rules);
        found.insert(found.end(), peaks.begin(), peaks.end());
    }
    if (options_.exact) {
        if (options_.top > 0 && static_cast<int>(found.size()) > options_.top)
            found.resize(static_cast<std::size_t>(options_.top));
        return found;
    }
    return templates_.size() == 1 ? found : merge_peaks(std::move(found), options_.method, rules);
}

}  // namespace cascade::match
