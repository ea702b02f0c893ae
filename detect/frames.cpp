#include "detect/frames.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/videoio/registry.hpp>

#include "cli/values.hpp"
#include "common/error.hpp"
#include "common/image_header.hpp"
#include "detect/library_noise.hpp"

namespace cascade::detect {

namespace {

cv::Mat to_gray(const cv::Mat& image) {
    cv::Mat eight_bit = image;
    if (image.depth() != CV_8U) image.convertTo(eight_bit, CV_8U);
    cv::Mat gray;
    switch (eight_bit.channels()) {
        case 1: return eight_bit;
        case 3: cv::cvtColor(eight_bit, gray, cv::COLOR_BGR2GRAY); return gray;
        case 4: cv::cvtColor(eight_bit, gray, cv::COLOR_BGRA2GRAY); return gray;
        default: throw cv::Exception(cv::Error::StsBadArg, "unsupported number of channels", "to_gray", __FILE__, __LINE__);
    }
}

// FFmpeg when OpenCV has it (no GStreamer pipelines or image-sequence patterns guessed from file names).
int video_api() {
    return cv::videoio_registry::hasBackend(cv::CAP_FFMPEG) ? static_cast<int>(cv::CAP_FFMPEG)
                                                              : static_cast<int>(cv::CAP_ANY);
}

bool open_quietly(cv::VideoCapture& capture, const std::string& path) {
    StderrCapture silence;
    try {
        return capture.open(path, video_api()) && capture.isOpened();
    } catch (const cv::Exception&) {
        return false;
    }
}

}  // namespace

FrameReader::FrameReader(std::vector<Source> sources, VideoLimits limits, InputRules rules, WarningSink warn)
    : sources_(std::move(sources)), limits_(limits), rules_(rules), warn_(std::move(warn)) {}

bool FrameReader::next(Frame& frame) {
    for (;;) {
        if (in_video_) {
            if (next_video_frame(frame)) return true;
            capture_.release();
            in_video_ = false;
        }
        if (next_source_ >= sources_.size()) return false;
        const Source& source = sources_[next_source_++];
        try {
            if (open_source(source, frame)) return true;
        } catch (const InputError& e) {
            if (!rules_.skip_bad) throw;
            capture_.release();
            frame = Frame();
            frame.file = source.path;
            frame.skipped = e.problem();
            return true;
        }
    }
}

bool FrameReader::open_source(const Source& source, Frame& frame) {
    if (!source.problem.empty()) throw InputError(source.path, source.problem);
    if (!std::ifstream(source.path, std::ios::binary))
        throw InputError(source.path, "cannot open the file (missing or no permission)");
    if (source.video) {
        if (open_video(source.path)) return false;
        if (!capture_.isOpened()) throw InputError(source.path, "cannot open the video (corrupt or unsupported)");
        throw InputError(source.path, "the video has no readable frames");
    }
    if (read_image(source.path, frame)) return true;
    if (open_video(source.path)) return false;
    throw InputError(source.path, "cannot read the image (corrupt, or not an image)");
}

// Every frame of a video has its first frame's size, so one check covers the video.
void FrameReader::check_size(const std::string& path, const cv::Mat& image, bool video) const {
    if (image.cols >= rules_.window.width && image.rows >= rules_.window.height) return;
    const std::string size = cli::size_text({image.cols, image.rows});
    throw InputError(path, (video ? "video frames " + size + " are" : "image " + size + " is") +
                               " smaller than the model window " + cli::size_text(rules_.window));
}

bool FrameReader::read_image(const std::string& path, Frame& frame) {
    check_image_file_pixels(path);
    cv::Mat image;
    std::string decoder_message;
    try {
        StderrCapture capture;
        image = cv::imread(path, cv::IMREAD_COLOR);
        decoder_message = capture.text();
    } catch (const cv::Exception& e) {
        throw InputError(path, "cannot read the image (" + e.err + ")");
    }
    if (image.empty()) return false;
    check_size(path, image, false);
    if (!decoder_message.empty() && warn_) warn_(path, "decoder: " + decoder_message);
    frame.file = path;
    frame.index = 0;
    frame.video = false;
    frame.fps = 0.0;
    frame.gray = to_gray(image);
    frame.image = std::move(image);
    return true;
}

bool FrameReader::open_video(const std::string& path) {
    capture_.release();
    if (!open_quietly(capture_, path)) return false;
    check_image_pixels(path, {static_cast<int>(capture_.get(cv::CAP_PROP_FRAME_WIDTH)),
                              static_cast<int>(capture_.get(cv::CAP_PROP_FRAME_HEIGHT))});
    first_frame_ = cv::Mat();
    if (!capture_.read(first_frame_) || first_frame_.empty()) return false;
    check_size(path, first_frame_, true);
    in_video_ = true;
    video_path_ = path;
    const double declared = capture_.get(cv::CAP_PROP_FRAME_COUNT);
    declared_frames_ = declared >= 1 && declared < 1e12 ? static_cast<long>(declared) : 0;
    video_fps_ = capture_.get(cv::CAP_PROP_FPS);
    if (!std::isfinite(video_fps_) || video_fps_ < 0) video_fps_ = 0.0;
    position_ = 0;
    taken_ = 0;
    return true;
}

bool FrameReader::next_video_frame(Frame& frame) {
    if (limits_.max_frames > 0 && taken_ >= limits_.max_frames) return false;
    cv::Mat image;
    if (!first_frame_.empty()) {
        image = first_frame_;
        first_frame_ = cv::Mat();
    } else {
        for (; position_ % limits_.every != 0; ++position_)
            if (!capture_.grab()) return video_ended();
        if (!capture_.read(image) || image.empty()) return video_ended();
    }
    frame.file = video_path_;
    frame.index = position_++;
    frame.video = true;
    frame.fps = video_fps_;
    frame.gray = to_gray(image);
    frame.image = std::move(image);
    ++taken_;
    return true;
}

// A truncated file decodes to its last whole frame and then ends as a complete one would. Counts a container
// estimates from its duration can be off by a frame or two, hence the margin.
bool FrameReader::video_ended() {
    const long margin = std::max(2L, declared_frames_ / 100);
    if (warn_ && declared_frames_ > 0 && position_ + margin < declared_frames_)
        warn_(video_path_, "the video ends after " + std::to_string(position_) + " of the " +
                               std::to_string(declared_frames_) + " frames its header declares (truncated?)");
    return false;
}

long FrameReader::expected_frames(const std::vector<Source>& sources, VideoLimits limits) {
    long total = 0;
    for (const Source& source : sources) {
        if (!source.video) {
            ++total;
            continue;
        }
        cv::VideoCapture capture;
        if (!open_quietly(capture, source.path)) return 0;
        const double count = capture.get(cv::CAP_PROP_FRAME_COUNT);
        if (!(count >= 1 && count < 1e12)) return 0;
        long frames = (static_cast<long>(count) + limits.every - 1) / limits.every;
        if (limits.max_frames > 0) frames = std::min<long>(frames, limits.max_frames);
        total += frames;
    }
    return total;
}

}  // namespace cascade::detect
