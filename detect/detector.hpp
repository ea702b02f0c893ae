// The detector of a run: a backend's raw windows, then the grouping chosen on the command line and clipping
// to the image (common/postprocess.hpp).
//
// The constructor checks what needs both the model and the options (--max-size against the model window:
// UsageError) and throws InputError when the backend cannot run the model. detect() takes an 8-bit gray
// image at least as large as window() and returns the final detections: the raw windows scoring at least
// --min-score (when given; with the last stage's threshold lowered to it when it is below), grouped, clipped.
#pragma once

#include <memory>
#include <optional>
#include <opencv2/core/mat.hpp>
#include <vector>

#include "common/detection.hpp"
#include "common/packed_model.hpp"
#include "detect/backend.hpp"
#include "detect/options.hpp"

namespace cascade::detect {

class Detector {
public:
    Detector(const PackedModel& model, const Options& options);
    Size window() const { return backend_->window(); }
    std::vector<Detection> detect(const cv::Mat& gray) const;

    // Several frames at once (Backend::submit): submit() at most capacity() images, take() each one's
    // detections in submission order, passing the same image again; each stays alive until its take().
    int capacity() const { return backend_->capacity(); }
    void submit(const cv::Mat& gray) const;
    std::vector<Detection> take(const cv::Mat& gray) const;
    void drain() const noexcept { backend_->drain(); }

private:
    std::unique_ptr<Backend> backend_;
    GroupingParams grouping_;
    std::optional<float> min_score_;
};

}  // namespace cascade::detect
