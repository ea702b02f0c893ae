// The template of a cascade-match run at every --scales size, and how it is found in one frame: a score map per
// size from the --backend's map source (match/map_source.hpp: TM_* scores, or region covariance distances to the
// template's covariance), its peaks, merged over the sizes (match/peaks.hpp); or the exact matches.
//
// The template decides grey or colour: a file with one channel is matched in grey, any other in colour (BGR, 8-bit;
// an alpha channel is dropped), unless --grey. Frames are converted the same way (cv::cvtColor BGR2GRAY).
#pragma once

#include <memory>
#include <opencv2/core/mat.hpp>
#include <vector>

#include "common/detection.hpp"
#include "match/map_source.hpp"
#include "match/options.hpp"

namespace cascade::match {

class TemplateSet {
public:
    // Reads options.template_path; InputError naming it when it cannot be read or a scale leaves it under 1x1.
    explicit TemplateSet(const Options& options);

    Size size() const { return size_; }  // at scale 1
    Size largest() const;  // over the scales: what every frame must hold
    int channels() const { return templates_.front().channels(); }

    // The matches in one frame, 8-bit with channels() channels (BGR or grey), by the run's method and peak rules;
    // `grey` is the frame in grey (region covariance's derivatives).
    std::vector<Detection> find(const cv::Mat& image, const cv::Mat& grey);

private:
    std::vector<cv::Mat> templates_;  // one per scale, in --scales order
    std::vector<std::vector<cv::Mat>> split_;  // their planes
    TemplatePlanes planes_;           // views of split_, and the covariance target
    Size size_;
    std::unique_ptr<MapSource> source_;
    const Options& options_;
};

}  // namespace cascade::match
