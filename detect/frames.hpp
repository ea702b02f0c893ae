// Decoding of the expanded inputs into the frames a run detects on, one at a time, in input order.
//
// A still image is one frame with index 0. A video gives frames 0, every, 2*every, ... (indices in the
// video), at most max_frames of them when max_frames > 0. A file that does not decode as an image is tried
// as a video. Throws InputError naming the file for an unreadable or corrupt image, a video that does not
// open or has no frames, and an image or video smaller than the model window; with --skip-bad
// (InputRules::skip_bad) it gives such a source as one Frame whose `skipped` says why, and goes on. Decoder
// warnings on images that do decode (libjpeg's "Premature end of JPEG file") go to `warn`, not to stderr.
#pragma once

#include <functional>
#include <opencv2/core/mat.hpp>
#include <opencv2/videoio.hpp>
#include <string>
#include <vector>

#include "common/geometry.hpp"
#include "detect/inputs.hpp"

namespace cascade::detect {

struct Frame {
    std::string file;
    int index = 0;       // frame index in the video; 0 for a still image
    bool video = false;
    double fps = 0.0;    // the video's frame rate (0 if unknown or a still image)
    cv::Mat image;       // as decoded (BGR for images and videos)
    cv::Mat gray;        // 8-bit single-channel
    std::string skipped;  // --skip-bad: why this source was skipped (no image then); empty for a frame
};

struct VideoLimits {
    int every = 1;
    int max_frames = 0;  // 0: all
};

// What every input must be: at least as large as the model window; skip_bad: a bad one is skipped, not fatal.
struct InputRules {
    Size window;
    bool skip_bad = false;
};

using WarningSink = std::function<void(const std::string& subject, const std::string& problem)>;

class FrameReader {
public:
    FrameReader(std::vector<Source> sources, VideoLimits limits, InputRules rules, WarningSink warn);
    bool next(Frame& frame);  // false after the last frame

    // How many frames a run over `sources` will give, for a progress bar; 0 when a video's length is unknown.
    static long expected_frames(const std::vector<Source>& sources, VideoLimits limits);

private:
    bool open_source(const Source& source, Frame& frame);  // true: an image in `frame`; false: a video opened
    void check_size(const std::string& path, const cv::Mat& image, bool video) const;
    bool read_image(const std::string& path, Frame& frame);
    bool open_video(const std::string& path);  // true when it opens and its first frame reads
    bool next_video_frame(Frame& frame);
    bool video_ended();  // false; warns when the video ends well short of the frames its header declares

    std::vector<Source> sources_;
    VideoLimits limits_;
    InputRules rules_;
    WarningSink warn_;
    std::size_t next_source_ = 0;
    cv::VideoCapture capture_;
    bool in_video_ = false;
    std::string video_path_;
    double video_fps_ = 0.0;
    long declared_frames_ = 0;  // the container's frame count; 0 when unknown
    cv::Mat first_frame_;  // read when the video was opened, not yet returned
    int position_ = 0;     // index of the next frame the capture gives
    int taken_ = 0;
};

}  // namespace cascade::detect
