#include "bench/eval/opencv_hog.hpp"

#include <limits>
#include <memory>
#include <mutex>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/objdetect.hpp>

#include "common/error.hpp"
#include "common/image_header.hpp"
#include "common/parallel.hpp"
#include "common/pyramid.hpp"

namespace cascade::eval {

namespace {

constexpr double kEveryWindow = -std::numeric_limits<double>::infinity();  // detect's threshold: keep all

cv::Mat read_image(const std::string& path, HogReference which) {
    check_image_file_pixels(path);
    const cv::Mat image = cv::imread(path, which == HogReference::opencv ? cv::IMREAD_COLOR : cv::IMREAD_GRAYSCALE);
    if (image.empty()) throw InputError(path, "cannot read image (missing, unreadable or not an image)");
    return image;
}

// The scores of every window of one pyramid level, at positions (0, 0), (stride, 0), ... (detect visits them
// row by row; their count is checked, so that a change in OpenCV's scan could not go unnoticed).
void score_level(const cv::HOGDescriptor& hog, const cv::Mat& level, int stride, std::vector<double>& scores) {
    std::vector<cv::Point> found;
    std::vector<double> weights;
    hog.detect(level, found, weights, kEveryWindow, cv::Size(stride, stride), cv::Size(0, 0));
    const auto along = [stride](int length, int window) { return length < window ? 0 : (length - window) / stride + 1; };
    const std::size_t expected = static_cast<std::size_t>(along(level.cols, hog.winSize.width)) *
                                 static_cast<std::size_t>(along(level.rows, hog.winSize.height));
    if (weights.size() != expected)
        throw std::runtime_error("OpenCV's HOGDescriptor scored " + std::to_string(weights.size()) + " windows of a " +
                                 std::to_string(level.cols) + "x" + std::to_string(level.rows) + " level, not " +
                                 std::to_string(expected));
    scores.insert(scores.end(), weights.begin(), weights.end());
}

}  // namespace

const char* reference_name(HogReference which) {
    return which == HogReference::opencv ? "opencv-hog" : "opencv-hog-gray";
}

std::string reference_label(HogReference which) {
    return which == HogReference::opencv ? "OpenCV HOGDescriptor" : "OpenCV HOGDescriptor, gray";
}

WindowScorer opencv_hog_scorer(HogReference which, const ScanParams& scan) {
    auto hog = std::make_shared<cv::HOGDescriptor>();  // the defaults getDefaultPeopleDetector was trained with
    hog->setSVMDetector(cv::HOGDescriptor::getDefaultPeopleDetector());
    const Size window{hog->winSize.width, hog->winSize.height};
    const double blocks = static_cast<double>(hog->getDescriptorSize()) / (4.0 * hog->nbins);  // 2x2 cells a block

    WindowScorer s;
    s.window = window;
    s.work_unit = "blocks";
    s.settings.emplace_back("reference", reference_name(which));
    s.centred = [hog, which, window](const std::string& path) {
        const cv::Mat crop = read_image(path, which);
        if (crop.cols < window.width || crop.rows < window.height)
            throw InputError(path, "crop is " + std::to_string(crop.cols) + "x" + std::to_string(crop.rows) +
                                       ", smaller than the 64x128 window");
        std::vector<cv::Point> found;
        std::vector<double> weights;
        const std::vector<cv::Point> centre{{(crop.cols - window.width) / 2, (crop.rows - window.height) / 2}};
        hog->detect(crop, found, weights, kEveryWindow, cv::Size(), cv::Size(0, 0), centre);
        if (weights.size() != 1) throw std::runtime_error("OpenCV's HOGDescriptor did not score " + path);
        return weights.front();
    };
    s.scan = [hog, which, window, scan, blocks](const std::string& path, std::vector<double>& scores) {
        const cv::Mat image = read_image(path, which);
        const std::vector<PyramidLevel> levels = pyramid_levels({image.cols, image.rows}, window, scan.pyramid);
        std::mutex mutex;
        std::size_t windows = 0;
        parallel_for(
            static_cast<int>(levels.size()),
            [&](int i) {
                const Size size = levels[static_cast<std::size_t>(i)].size;
                cv::Mat level;
                cv::resize(image, level, cv::Size(size.width, size.height), 0, 0, cv::INTER_LINEAR_EXACT);
                std::vector<double> local;
                score_level(*hog, level, scan.rule.stride, local);
                std::lock_guard<std::mutex> lock(mutex);
                scores.insert(scores.end(), local.begin(), local.end());
                windows += local.size();
            },
            scan.threads);
        return blocks * static_cast<double>(windows);
    };
    return s;
}

}  // namespace cascade::eval
