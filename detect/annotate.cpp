#include "detect/annotate.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "cli/output_paths.hpp"
#include "cli/usage_error.hpp"
#include "common/atomic_file.hpp"
#include "common/error.hpp"

namespace fs = std::filesystem;

namespace cascade::detect {

using cli::same_file;
using cli::UsageError;

namespace {

cv::Mat draw(const cv::Mat& image, const std::vector<Detection>& detections) {
    cv::Mat picture;
    if (image.channels() == 1)
        cv::cvtColor(image, picture, cv::COLOR_GRAY2BGR);
    else if (image.channels() == 4)
        cv::cvtColor(image, picture, cv::COLOR_BGRA2BGR);
    else
        picture = image.clone();
    const int thickness = std::max(2, std::min(picture.cols, picture.rows) / 300);
    for (const Detection& d : detections)
        if (d.rect.width == 1 && d.rect.height == 1)  // a point (cascade-keypoints): a circle around it
            cv::circle(picture, cv::Point(d.rect.x, d.rect.y), 2 * thickness, cv::Scalar(0, 255, 0), thickness / 2);
        else
            cv::rectangle(picture, cv::Rect(d.rect.x, d.rect.y, d.rect.width, d.rect.height), cv::Scalar(0, 255, 0),
                          thickness);
    return picture;
}

}  // namespace

Annotator::Annotator(const RunOptions& options)
    : dir_(options.annotate_dir), video_target_(options.annotate_video), every_(options.every) {}

Annotator::~Annotator() {
    if (!committed_) discard();
}

std::string Annotator::image_name(const std::string& file, bool video, int index) const {
    std::string name = fs::path(file).stem().string();
    if (video) {
        char suffix[32];
        std::snprintf(suffix, sizeof suffix, "_%06d", index);
        name += suffix;
    }
    return (fs::path(dir_) / (name + ".png")).string();
}

void Annotator::check_names(const std::vector<Source>& sources) const {
    if (dir_.empty()) return;
    std::map<std::string, std::string> owner;  // annotated name -> the input that gets it
    for (const Source& source : sources) {
        if (source.video) continue;  // frame names carry the frame index; two videos of one name are caught in add()
        const std::string target = image_name(source.path, false, 0);
        const auto [it, inserted] = owner.emplace(target, source.path);
        if (!inserted && it->second != source.path)
            throw UsageError("--annotate", "'" + it->second + "' and '" + source.path + "' would both be written to " + target);
        for (const Source& other : sources)
            if (same_file(target, other.path))
                throw UsageError("--annotate", "'" + target + "' is an input; it would be overwritten");
    }
}

void Annotator::add(const Frame& frame, const std::vector<Detection>& detections) {
    if (dir_.empty() && (video_target_.empty() || !frame.video)) return;
    const cv::Mat picture = draw(frame.image, detections);
    if (!dir_.empty()) {
        const std::string target = image_name(frame.file, frame.video, frame.index);
        if (!targets_.insert(target).second) {
            if (!frame.video) return;  // the same image given twice: one annotated picture
            throw UsageError("--annotate", "two inputs would both be written to " + target);
        }
        stage_image(target, picture);
    }
    if (!video_target_.empty() && frame.video) add_to_video(frame, picture);
}

void Annotator::stage_image(const std::string& target, const cv::Mat& picture) {
    if (!fs::is_directory(dir_)) {
        std::error_code error;
        fs::create_directories(dir_, error);
        if (error) throw InputError(dir_, "cannot create the folder (" + error.message() + ")");
        created_dir_ = true;
    }
    std::vector<std::uint8_t> bytes;
    if (!cv::imencode(".png", picture, bytes)) throw InputError(target, "cannot encode the annotated image");
    const std::string temporary = temporary_path_for(target);
    staged_.push_back({temporary, target});
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    out.close();
    if (!out) throw InputError(target, "cannot write the file (disk full or no permission?)");
}

void Annotator::add_to_video(const Frame& frame, const cv::Mat& picture) {
    if (!writer_.isOpened()) {
        if (!writer_source_.empty())
            throw UsageError("--annotate-video", "more than one video input ('" + writer_source_ + "' and '" + frame.file + "')");
        double fps = frame.fps > 0 ? frame.fps / every_ : 25.0;
        if (fps < 1.0) fps = 1.0;
        video_temporary_ = temporary_path_for(video_target_) + ".avi";
        writer_source_ = frame.file;
        if (!writer_.open(video_temporary_, cv::CAP_OPENCV_MJPEG, cv::VideoWriter::fourcc('M', 'J', 'P', 'G'), fps,
                          picture.size(), true))
            throw InputError(video_target_, "cannot write the video");
        staged_.push_back({video_temporary_, video_target_});
    } else if (frame.file != writer_source_) {
        throw UsageError("--annotate-video", "more than one video input ('" + writer_source_ + "' and '" + frame.file + "')");
    }
    writer_.write(picture);
}

void Annotator::finish() {
    if (writer_.isOpened()) writer_.release();
    if (!video_target_.empty() && writer_source_.empty())
        throw UsageError("--annotate-video", "no video among the inputs");
}

void Annotator::commit() {
    finish();
    for (const Staged& s : staged_) commit_file(s.temporary, s.target);
    committed_ = true;
}

void Annotator::discard() noexcept {
    try {
        if (writer_.isOpened()) writer_.release();
    } catch (...) {
    }
    for (const Staged& s : staged_) std::remove(s.temporary.c_str());
    if (created_dir_) {
        std::error_code error;
        if (fs::is_empty(dir_, error) && !error) fs::remove(dir_, error);
    }
}

}  // namespace cascade::detect
