// Annotated output: every frame with its detections drawn, as PNGs in the --annotate folder and/or as the
// --annotate-video AVI (MJPG) for the video input. A 1x1 detection is a point (cascade-keypoints): a circle.
//
// Names: an image "a/photo.jpg" becomes DIR/photo.png; frame 12 of "street.mp4" becomes DIR/street_000012.png.
// check_names() rejects, before any work, two inputs that would share a name and a name that is an input
// (UsageError). Everything is staged in temporaries beside its target; commit() renames them into place.
// Until then nothing has a final name, and the destructor (a failed run) removes every temporary and the
// --annotate folder if this run created it and left it empty.
#pragma once

#include <opencv2/videoio.hpp>
#include <set>
#include <string>
#include <vector>

#include "common/detection.hpp"
#include "detect/frames.hpp"
#include "detect/inputs.hpp"
#include "detect/run_options.hpp"

namespace cascade::detect {

class Annotator {
public:
    explicit Annotator(const RunOptions& options);
    ~Annotator();
    Annotator(const Annotator&) = delete;
    Annotator& operator=(const Annotator&) = delete;

    void check_names(const std::vector<Source>& sources) const;
    void add(const Frame& frame, const std::vector<Detection>& detections);
    void finish();  // closes the video; UsageError if --annotate-video was given but no video came
    void commit();  // finish(), then every staged file takes its final name

private:
    std::string image_name(const std::string& file, bool video, int index) const;
    void stage_image(const std::string& target, const cv::Mat& picture);
    void add_to_video(const Frame& frame, const cv::Mat& picture);
    void discard() noexcept;

    std::string dir_;
    std::string video_target_;
    int every_ = 1;
    bool created_dir_ = false;
    cv::VideoWriter writer_;
    std::string writer_source_;  // the video whose frames go into writer_
    std::string video_temporary_;
    struct Staged {
        std::string temporary, target;
    };
    std::vector<Staged> staged_;
    std::set<std::string> targets_;
    bool committed_ = false;
};

}  // namespace cascade::detect
