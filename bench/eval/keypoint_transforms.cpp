#include "bench/eval/keypoint_transforms.hpp"

#include <cmath>
#include <cstdint>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

namespace cascade::eval {

std::vector<TransformStep> transform_steps() {
    std::vector<TransformStep> steps;
    for (const double deg : {15.0, 30.0, 45.0, 60.0, 90.0}) steps.push_back({"rotation", std::to_string(int(deg)) + " deg", deg});
    for (const double s : {0.5, 0.7, 0.85, 1.2, 1.5}) steps.push_back({"scale", "x" + std::to_string(s).substr(0, 4), s});
    for (const double p : {0.1, 0.2, 0.3, 0.4}) steps.push_back({"homography", "tilt " + std::to_string(p).substr(0, 3), p});
    for (const double sigma : {2.0, 5.0, 10.0, 20.0}) steps.push_back({"noise", "sigma " + std::to_string(int(sigma)), sigma});
    for (const double q : {90.0, 70.0, 50.0, 30.0, 10.0}) steps.push_back({"jpeg", "q " + std::to_string(int(q)), q});
    for (const double g : {0.5, 0.7, 1.4, 2.0}) steps.push_back({"illumination", "gamma " + std::to_string(g).substr(0, 3), g});
    return steps;
}

namespace {

cv::Mat warp(const cv::Mat& grey, const cv::Matx33d& h, cv::Size size) {
    cv::Mat out;
    cv::warpPerspective(grey, out, cv::Mat(h), size, cv::INTER_LINEAR, cv::BORDER_REFLECT);
    return out;
}

// The perspective map that moves the right edge's corners inwards by p of the height, and scales to keep the
// image's width.
cv::Matx33d tilt(cv::Size size, double p) {
    const float w = float(size.width - 1), hh = float(size.height - 1), d = float(p * size.height / 2);
    const cv::Point2f from[] = {{0, 0}, {w, 0}, {w, hh}, {0, hh}};
    const cv::Point2f to[] = {{0, 0}, {w, d}, {w, hh - d}, {0, hh}};
    return cv::Matx33d(cv::getPerspectiveTransform(from, to));
}

}  // namespace

cv::Mat apply_transform(const TransformStep& step, const cv::Mat& grey, cv::Matx33d& h) {
    h = cv::Matx33d::eye();
    const double s = step.strength;
    if (step.family == "rotation") {
        const cv::Mat r = cv::getRotationMatrix2D({float(grey.cols - 1) / 2, float(grey.rows - 1) / 2}, s, 1.0);
        h = cv::Matx33d(r.at<double>(0, 0), r.at<double>(0, 1), r.at<double>(0, 2), r.at<double>(1, 0),
                        r.at<double>(1, 1), r.at<double>(1, 2), 0, 0, 1);
        return warp(grey, h, grey.size());
    }
    if (step.family == "scale") {
        h = cv::Matx33d(s, 0, 0, 0, s, 0, 0, 0, 1);
        return warp(grey, h, {int(std::lround(grey.cols * s)), int(std::lround(grey.rows * s))});
    }
    if (step.family == "homography") {
        h = tilt(grey.size(), s);
        return warp(grey, h, grey.size());
    }
    cv::Mat out;
    if (step.family == "noise") {
        cv::Mat noise(grey.size(), CV_32F);
        cv::RNG random(static_cast<std::uint64_t>(s * 1000) + static_cast<std::uint64_t>(grey.total()));
        random.fill(noise, cv::RNG::NORMAL, 0, s);  // the same noise for every detector
        cv::Mat sum;
        grey.convertTo(sum, CV_32F);
        sum += noise;
        sum.convertTo(out, CV_8U);  // saturating
    } else if (step.family == "jpeg") {
        std::vector<unsigned char> bytes;
        cv::imencode(".jpg", grey, bytes, {cv::IMWRITE_JPEG_QUALITY, int(s)});
        out = cv::imdecode(bytes, cv::IMREAD_GRAYSCALE);
    } else {  // illumination: gamma
        cv::Mat lut(1, 256, CV_8U);
        for (int i = 0; i < 256; ++i) lut.at<unsigned char>(i) = cv::saturate_cast<unsigned char>(255 * std::pow(i / 255.0, s));
        cv::LUT(grey, lut, out);
    }
    return out;
}

}  // namespace cascade::eval
