#include "bench/eval/composite_set.hpp"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <sstream>
#include <vector>

#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "common/image_header.hpp"
#include "data/progress.hpp"
#include "data/random.hpp"

namespace fs = std::filesystem;

namespace cascade::eval {

namespace {

constexpr int kPlacementTries = 50;

double uniform(data::Random& random) { return static_cast<double>(random.next() >> 11) * 0x1.0p-53; }

cv::Mat read_colour(const std::string& path) {
    check_image_file_pixels(path);
    cv::Mat image = cv::imread(path, cv::IMREAD_COLOR);
    if (image.empty()) throw InputError(path, "cannot read image");
    return image;
}

bool overlaps(const cv::Rect& r, const std::vector<cv::Rect>& placed) {
    for (const cv::Rect& p : placed)
        if ((r & p).area() > 0) return true;
    return false;
}

// Pastes `crop` over `picture` at `at`: opaque inside, a linear ramp over the outer `ramp` pixels.
void paste(const cv::Mat& crop, cv::Mat& picture, cv::Point at, int ramp) {
    for (int y = 0; y < crop.rows; ++y)
        for (int x = 0; x < crop.cols; ++x) {
            const int edge = std::min(std::min(x, crop.cols - 1 - x), std::min(y, crop.rows - 1 - y));
            const float a = edge >= ramp ? 1.f : static_cast<float>(edge + 1) / static_cast<float>(ramp + 1);
            cv::Vec3b& out = picture.at<cv::Vec3b>(at.y + y, at.x + x);
            const cv::Vec3b in = crop.at<cv::Vec3b>(y, x);
            for (int c = 0; c < 3; ++c)
                out[c] =
                    cv::saturate_cast<uchar>(a * static_cast<float>(in[c]) + (1.f - a) * static_cast<float>(out[c]));
        }
}

std::string inria_annotation(const std::string& image_entry, const cv::Mat& picture, const std::vector<Rect>& boxes) {
    std::ostringstream out;
    out << "# PASCAL Annotation Version 1.00\n\nImage filename : \"" << image_entry << "\"\n"
        << "Image size (X x Y x C) : " << picture.cols << " x " << picture.rows << " x 3\n"
        << "Database : \"cascade-eval composite set (held-out INRIA crops pasted into person-free photos)\"\n"
        << "Objects with ground truth : " << boxes.size() << " {";
    for (std::size_t i = 0; i < boxes.size(); ++i) out << " \"PASperson\"";
    out << " }\n\n# Top left pixel co-ordinates : (1, 1)\n";
    for (std::size_t i = 0; i < boxes.size(); ++i) {
        const Rect& b = boxes[i];
        out << "# Details for object " << i + 1 << " (\"PASperson\")\n"
            << "Original label for object " << i + 1 << " \"PASperson\" : \"UprightPerson\"\n"
            << "Bounding box for object " << i + 1 << " \"PASperson\" (Xmin, Ymin) - (Xmax, Ymax) : (" << b.x + 1
            << ", " << b.y + 1 << ") - (" << b.x + b.width << ", " << b.y + b.height << ")\n\n";
    }
    return out.str();
}

}  // namespace

void write_composite_set(const TestSet& set, const CompositeParams& params, const std::string& folder) {
    fs::create_directories(fs::path(folder) / "images");
    fs::create_directories(fs::path(folder) / "annotations");
    std::string list;
    data::Progress progress("pictures", params.images);
    data::Random order_random(params.seed, {0x636f6d706f73ull});
    const std::vector<int> order = order_random.permutation(static_cast<int>(set.negative_images.size()));
    int placed_people = 0;
    for (int n = 0; n < params.images; ++n) {
        data::Random random(params.seed, {0x636f6d706f73ull, static_cast<std::uint64_t>(n)});
        const std::string& background = set.negative_images[static_cast<std::size_t>(order[n % order.size()])];
        cv::Mat picture = read_colour(background);
        const int people = 1 + static_cast<int>(random.below(static_cast<std::uint64_t>(params.max_people)));
        std::vector<cv::Rect> placed;
        std::vector<Rect> boxes;
        for (int p = 0; p < people; ++p) {
            const std::string& crop_path = set.crops[random.below(set.crops.size())];
            const cv::Mat crop = read_colour(crop_path);
            if (crop.cols < params.window.width || crop.rows < params.window.height)
                throw InputError(crop_path, "crop is smaller than the window");
            const double s = params.min_scale * std::pow(params.max_scale / params.min_scale, uniform(random));
            const cv::Size size(static_cast<int>(std::lround(crop.cols * s)),
                                static_cast<int>(std::lround(crop.rows * s)));
            if (size.width > picture.cols || size.height > picture.rows) continue;
            for (int t = 0; t < kPlacementTries; ++t) {
                const cv::Rect r(
                    static_cast<int>(random.below(static_cast<std::uint64_t>(picture.cols - size.width + 1))),
                    static_cast<int>(random.below(static_cast<std::uint64_t>(picture.rows - size.height + 1))),
                    size.width, size.height);
                if (overlaps(r, placed)) continue;
                cv::Mat scaled;
                cv::resize(crop, scaled, size, 0, 0, s < 1.0 ? cv::INTER_AREA : cv::INTER_LINEAR);
                const int margin = static_cast<int>(std::lround((crop.cols - params.window.width) / 2.0 * s));
                paste(scaled, picture, r.tl(), margin / 2);
                placed.push_back(r);
                const int w = static_cast<int>(std::lround(params.window.width * s));
                const int h = static_cast<int>(std::lround(params.window.height * s));
                boxes.push_back({r.x + (size.width - w) / 2, r.y + (size.height - h) / 2, w, h});
                break;
            }
        }
        char name[32];
        std::snprintf(name, sizeof name, "composite_%04d", n + 1);
        const std::string image_entry = std::string("images/") + name + ".jpg";
        const std::string image_path = (fs::path(folder) / image_entry).string();
        std::vector<uchar> jpeg;
        cv::imencode(".jpg", picture, jpeg, {cv::IMWRITE_JPEG_QUALITY, 95});
        write_file_atomically(image_path, std::string(jpeg.begin(), jpeg.end()));
        write_file_atomically((fs::path(folder) / "annotations" / (std::string(name) + ".txt")).string(),
                              inria_annotation(image_entry, picture, boxes));
        list += std::string("annotations/") + name + ".txt\n";
        placed_people += static_cast<int>(boxes.size());
        progress.update(n + 1);
    }
    if (placed_people == 0) throw InputError(folder, "no background is large enough for a crop at --min-scale");
    write_file_atomically((fs::path(folder) / "annotations.lst").string(), list);
}

}  // namespace cascade::eval
