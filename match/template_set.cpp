#include "match/template_set.hpp"

#include <algorithm>
#include <cmath>
#include <tuple>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "common/error.hpp"
#include "match/covariance_map.hpp"
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

GrayView grey_view(const cv::Mat& grey) { return {grey.data, grey.cols, grey.rows, static_cast<int>(grey.step)}; }

CovarianceLayout layout_of(const Options& options, int channels) { return {channels, options.extended}; }

std::vector<double> covariance_of(const cv::Mat& image, const Options& options) {
    cv::Mat grey = image;
    if (image.channels() == 3) cv::cvtColor(image, grey, cv::COLOR_BGR2GRAY);
    std::vector<cv::Mat> split;
    CovarianceIntegrals integrals;
    build_covariance_integrals(match_planes(image, split), grey_view(grey), layout_of(options, image.channels()),
                               integrals);
    return target_covariance(integrals);
}

}  // namespace

TemplateSet::TemplateSet(const Options& options) : options_(options) {
    const cv::Mat original = read_template(options);
    size_ = {original.cols, original.rows};
    if (options.covariance) {
        if (original.total() < 2) throw InputError(options.template_path, "region covariance needs 2 pixels or more");
        planes_.target = covariance_of(original, options);
    }
    for (const double scale : options.scales) {
        const cv::Size size(static_cast<int>(std::lround(original.cols * scale)),
                            static_cast<int>(std::lround(original.rows * scale)));
        if (size.width < 1 || size.height < 1)
            throw InputError(options.template_path, "is smaller than 1x1 pixel at scale " + std::to_string(scale));
        if (options.covariance && (size.area() < 2 || size.area() > (1 << 20)))
            throw InputError(options.template_path, "region covariance windows must hold 2 to 2^20 pixels; at scale " +
                                                        std::to_string(scale) + " it is " + std::to_string(size.width) +
                                                        "x" + std::to_string(size.height));
        cv::Mat resized = original;
        if (size != original.size())
            cv::resize(original, resized, size, 0, 0, scale < 1 ? cv::INTER_AREA : cv::INTER_LINEAR);
        templates_.push_back(resized);
    }
    split_.resize(templates_.size());
    for (std::size_t i = 0; i < templates_.size(); ++i) planes_.sizes.push_back(match_planes(templates_[i], split_[i]));
    source_ = options.backend == "gpu" ? make_gpu_source(options, planes_) : make_cpu_source(options, planes_);
}


Size TemplateSet::largest() const {
    Size out;
    for (const cv::Mat& t : templates_) out = {std::max(out.width, t.cols), std::max(out.height, t.rows)};
    return out;
}

std::vector<Detection> TemplateSet::find(const cv::Mat& image, const cv::Mat& grey) {
    std::vector<cv::Mat> image_split;
    MatchPlanes image_planes;
    GrayView grey_planes = grey_view(grey);
    StagingFill fill;  // the frame split into the source's staging strip by strip as it is uploaded
    if (std::uint8_t* staging = source_->staging({image.cols, image.rows})) {
        std::tie(image_planes, grey_planes) = staged_planes(image.channels(), {image.cols, image.rows}, staging);
        fill = [&image, &grey, staging](int top, int rows) { split_rows_into(image, grey, staging, top, rows); };
    } else {
        image_planes = match_planes(image, image_split);
    }
    std::vector<Detection> found;
    if (options_.exact) {
        const auto positions = source_->exact(image_planes);
        for (std::size_t i = 0; i < templates_.size(); ++i)
            for (const MatchPosition& p : positions[i])
                found.push_back({{p.x, p.y, templates_[i].cols, templates_[i].rows}, 0.f});
        if (options_.top > 0 && static_cast<int>(found.size()) > options_.top)
            found.resize(static_cast<std::size_t>(options_.top));
        return found;
    }
    const PeakRules rules{options_.top, options_.threshold, options_.nms_iou};
    if (!rules.threshold && rules.top == 1)
        if (const std::optional<Detection> best = source_->best(image_planes, grey_planes, fill)) return {*best};
    const std::vector<ScoreMap> maps = source_->maps(image_planes, grey_planes, fill);
    for (std::size_t i = 0; i < templates_.size(); ++i) {
        const Size size{templates_[i].cols, templates_[i].rows};
        const std::vector<Detection> peaks = find_peaks(maps[i], size, options_.method, rules);
        found.insert(found.end(), peaks.begin(), peaks.end());
    }
    return templates_.size() == 1 ? found : merge_peaks(std::move(found), options_.method, rules);
}

}  // namespace cascade::match
