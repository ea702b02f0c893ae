#include "detect/detector.hpp"

#include <algorithm>

#include "cli/usage_error.hpp"
#include "cli/values.hpp"
#include "common/cov_cpu_detector.hpp"
#include "common/postprocess.hpp"

namespace cascade::detect {

using cli::UsageError;
using cli::size_text;

namespace {

// A covariance model scans on its grid: --stride auto is kCovDefaultStride, any other a multiple of kCovGrid.
ScanParams scan_params(const Options& options, const PackedModel& model) {
    ScanParams params;
    if (std::holds_alternative<CovCascade>(model.model.cascade)) {
        if (options.stride == 0) params.rule.stride = kCovDefaultStride;
        if (options.stride % kCovGrid != 0)
            throw UsageError("--stride", std::to_string(options.stride) + " is not a multiple of " +
                                             std::to_string(kCovGrid) + " (a covariance model's grid)");
    }
    params.pyramid.scale_factor = options.scale_factor;
    params.pyramid.first_scale = options.first_scale;
    params.pyramid.min_object = options.min_size;
    params.pyramid.max_object = options.max_size;
    if (options.stride != 0) params.rule.stride = options.stride;
    params.threads = options.threads;
    return params;
}

}  // namespace

Detector::Detector(const PackedModel& model, const Options& options)
    : backend_(make_backend(options.backend, with_min_score(model, options.min_score), scan_params(options, model),
                            options.gpu)),
      grouping_(options.grouping),
      min_score_(options.min_score) {
    const Size window = backend_->window();
    const Size max = options.max_size;
    if (max.width > 0 && (max.width < window.width || max.height < window.height))
        throw UsageError("--max-size", size_text(max) + " is smaller than the model window " + size_text(window) +
                                           ", so nothing could be found");
}

namespace {

GrayView gray_view(const cv::Mat& gray) {
    CV_Assert(gray.type() == CV_8UC1);
    return {gray.ptr<std::uint8_t>(), gray.cols, gray.rows, static_cast<int>(gray.step[0])};
}

}  // namespace

std::vector<Detection> Detector::detect(const cv::Mat& gray) const {
    submit(gray);
    return take(gray);
}

void Detector::submit(const cv::Mat& gray) const { backend_->submit(gray_view(gray)); }

std::vector<Detection> Detector::take(const cv::Mat& gray) const {
    // One order for every backend's windows, so that grouping (whose float sums follow the input order) gives
    // every backend the same detections.
    std::vector<Detection> raw = backend_->take();
    if (min_score_)
        raw.erase(std::remove_if(raw.begin(), raw.end(), [&](const Detection& d) { return d.score < *min_score_; }),
                  raw.end());
    std::sort(raw.begin(), raw.end(), [](const Detection& a, const Detection& b) {
        return a.rect < b.rect || (a.rect == b.rect && a.score < b.score);
    });
    return group_and_clip(raw, grouping_, {gray.cols, gray.rows}, backend_->window());
}

}  // namespace cascade::detect
