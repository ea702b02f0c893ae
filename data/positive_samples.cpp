#include "data/positive_samples.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include "common/error.hpp"
#include "common/parallel.hpp"
#include "data/annotations.hpp"
#include "data/image_files.hpp"
#include "data/random.hpp"
#include "data/vec_file.hpp"

namespace fs = std::filesystem;

namespace cascade::data {

namespace {

// Context cut around an annotated box that is jittered, as a fraction of the box on each side: room for a
// shift, scale and turn of the window that the trainers' jitter options allow, before edge pixels repeat.
constexpr double kJitterContext = 0.25;

std::string crop_group(const std::string& path, GroupBy group_by) {
    if (group_by == GroupBy::folder) return fs::path(path).parent_path().lexically_normal().string();
    std::string stem = fs::path(path).stem().string();
    while (stem.size() > 1 && std::islower(static_cast<unsigned char>(stem.back()))) stem.pop_back();
    return stem;
}

bool is_annotation_file(const std::string& path) {
    return fs::path(path).extension() == ".txt";
}

void add_annotated(const std::vector<AnnotatedImage>& images, std::vector<PositiveSource>& out) {
    for (const AnnotatedImage& image : images)
        for (const Rect& box : image.boxes) out.push_back({image.path, box, image.path});
}

void add_entry(const std::string& path, GroupBy group_by, std::vector<PositiveSource>& out) {
    if (is_annotation_file(path))
        add_annotated({read_inria_annotation(path)}, out);
    else
        out.push_back({path, std::nullopt, crop_group(path, group_by)});
}

bool has_file(const std::string& folder, bool (*keep)(const std::string&)) {
    std::error_code error;
    for (fs::directory_iterator it(folder, error), end; !error && it != end; it.increment(error))
        if (keep(it->path().string())) return true;
    return false;
}

// A folder's crops or annotation files; without either, the images of its nested folders.
std::vector<std::string> folder_entries(const std::string& folder) {
    if (has_file(folder, has_image_extension)) return files_in_folder(folder, has_image_extension, "image files");
    if (has_file(folder, is_annotation_file)) return files_in_folder(folder, is_annotation_file, "annotation files");
    return images_in_nested_folders(folder, "image files, INRIA annotation (.txt) files or folders of images");
}

cv::Mat as_mat(const GrayImage& image) {
    return cv::Mat(image.height, image.width, CV_8UC1, const_cast<std::uint8_t*>(image.pixels.data()));
}

GrayImage from_mat(const cv::Mat& m) {
    GrayImage out(m.cols, m.rows);
    for (int y = 0; y < m.rows; ++y) std::copy_n(m.ptr<std::uint8_t>(y), m.cols, out.row(y));
    return out;
}

cv::Mat resized(const cv::Mat& region, Size window) {
    const bool shrinking = region.cols > window.width || region.rows > window.height;
    cv::Mat out;
    cv::resize(region, out, cv::Size(window.width, window.height), 0, 0, shrinking ? cv::INTER_AREA : cv::INTER_LINEAR);
    return out;
}

std::string size_text(int w, int h) {
    return std::to_string(w) + "x" + std::to_string(h);
}

GrayImage crop_from_crop(const cv::Mat& image, const std::string& path, const CropParams& p, bool& centred) {
    const Size w = p.window;
    if (!p.margin) {
        if (image.cols < w.width || image.rows < w.height)
            throw InputError(path, "crop is " + size_text(image.cols, image.rows) + ", smaller than the " +
                                       size_text(w.width, w.height) + " window");
        centred = image.cols > w.width || image.rows > w.height;
        return from_mat(image(cv::Rect((image.cols - w.width) / 2, (image.rows - w.height) / 2, w.width, w.height)));
    }
    const Margin& m = *p.margin;
    const int inner_width = image.cols - m.left - m.right, inner_height = image.rows - m.top - m.bottom;
    if (inner_width <= 0 || inner_height <= 0)
        throw InputError(path, "crop is " + size_text(image.cols, image.rows) + ": nothing left inside a margin of " +
                                   margin_text(m) + " pixels");
    return from_mat(resized(image(cv::Rect(m.left, m.top, inner_width, inner_height)), w));
}

// The box grown by `padding` on each side and widened or heightened about its centre to the window's aspect
// ratio, with `context` times its size more on each side, cut out (the image's edge pixels repeat where it
// leaves the image); `margin` receives the context's pixels per side.
cv::Mat cut_box(const cv::Mat& image, const std::string& path, Rect box, const CropParams& p, double context,
                Margin& margin) {
    if (box.width <= 0 || box.height <= 0)
        throw InputError(path, "annotated box " + size_text(box.width, box.height) + " at (" + std::to_string(box.x) +
                                   "," + std::to_string(box.y) + ") is empty");
    double w = box.width * (1 + 2 * p.padding), h = box.height * (1 + 2 * p.padding);
    const double aspect = static_cast<double>(p.window.width) / p.window.height;
    if (w / h < aspect)
        w = h * aspect;
    else
        h = w / aspect;
    const double cx = box.x + box.width / 2.0, cy = box.y + box.height / 2.0;
    const int mx = static_cast<int>(std::lround(context * w)), my = static_cast<int>(std::lround(context * h));
    margin = Margin(my, mx, my, mx);
    const cv::Rect region(static_cast<int>(std::lround(cx - w / 2)) - mx, static_cast<int>(std::lround(cy - h / 2)) - my,
                          std::max(1, static_cast<int>(std::lround(w))) + 2 * mx,
                          std::max(1, static_cast<int>(std::lround(h))) + 2 * my);
    const cv::Rect inside = region & cv::Rect(0, 0, image.cols, image.rows);
    if (inside.area() == 0) throw InputError(path, "annotated box lies outside the image");
    cv::Mat cut;
    cv::copyMakeBorder(image(inside), cut, inside.y - region.y, region.br().y - inside.br().y, inside.x - region.x,
                       region.br().x - inside.br().x, cv::BORDER_REPLICATE);
    return cut;
}

GrayImage mirrored(const GrayImage& image) {
    cv::Mat flipped;
    cv::flip(as_mat(image), flipped, 1);
    return from_mat(flipped);
}

// Uniform in [-1, 1).
double symmetric_unit(Random& random) {
    return static_cast<double>(random.next() >> 11) * 0x1p-52 - 1.0;
}

// Gaussian noise of standard deviation sigma (Box-Muller) on every pixel of a jittered copy's window.
void add_noise(GrayImage& window, double sigma, std::uint64_t seed, int sample, int copy) {
    Random random(seed, {static_cast<std::uint64_t>(sample), static_cast<std::uint64_t>(copy), 0x6e6f697365ull});
    for (std::uint8_t& pixel : window.pixels) {
        const double u = (static_cast<double>(random.next() >> 11) + 1.0) * 0x1p-53;  // (0, 1]
        const double v = static_cast<double>(random.next() >> 11) * 0x1p-53;
        const double g = std::sqrt(-2.0 * std::log(u)) * std::cos(2.0 * 3.14159265358979323846 * v);
        pixel = static_cast<std::uint8_t>(std::clamp(std::lround(pixel + sigma * g), 0L, 255L));
    }
}

// The window-sized sample of a crop and its jittered copies.
std::vector<GrayImage> crop_and_copies(const GrayImage& image, const std::string& path, int index, const CropParams& p,
                                       bool& centred) {
    std::vector<GrayImage> out{crop_from_crop(as_mat(image), path, p, centred)};
    const double pixels_per_window_pixel =
        !p.margin ? 1.0 : static_cast<double>(image.width - p.margin->left - p.margin->right) / p.window.width;
    for (int c = 0; c < p.jitter.copies; ++c) {
        const GrayImage copy = jittered(image, draw_jitter(p.jitter, index, c), pixels_per_window_pixel);
        bool same_size = false;  // a copy has the crop's size
        out.push_back(crop_from_crop(as_mat(copy), path, p, same_size));
        if (p.jitter.noise > 0.0) add_noise(out.back(), p.jitter.noise, p.jitter.seed, index, c);
    }
    return out;
}

// The window-sized sample of `source` and its jittered copies, in load_positives' order; `centred` tells
// whether they are the centre of a larger crop.
std::vector<GrayImage> sample_windows(const PositiveSource& s, int index, const CropParams& p, bool& centred) {
    const GrayImage image = s.vec_sample >= 0 ? read_vec_sample(s.path, s.vec_sample, p.window) : read_gray(s.path);
    const cv::Mat m = as_mat(image);
    if (!s.box) return crop_and_copies(image, s.path, index, p, centred);
    // A box becomes a crop of the box with context around it (the pixels that jitter moves in), cut as its margin.
    CropParams q = p;
    q.margin.emplace();
    const cv::Mat cut = cut_box(m, s.path, *s.box, p, p.jitter.copies > 0 ? kJitterContext : 0.0, *q.margin);
    return crop_and_copies(from_mat(cut), s.path, index, q, centred);
}

}  // namespace

GrayImage crop_window(const std::string& path, const CropParams& params) {
    const GrayImage image = read_gray(path);
    bool centred = false;
    return crop_from_crop(as_mat(image), path, params, centred);
}

void check_jitter(const Jitter& jitter) {
    if (jitter.copies < 0) throw InputError("--jitter", "must be 0 or more copies");
    if (jitter.shift < 0) throw InputError("--jitter-shift", "must be 0 or more pixels");
    if (!(jitter.scale >= 1.0)) throw InputError("--jitter-scale", "must be at least 1");
    if (!(jitter.rotation >= 0.0 && jitter.rotation <= 45.0))
        throw InputError("--jitter-rotation", "must lie in [0, 45] degrees");
    if (!(jitter.noise >= 0.0 && jitter.noise <= 64.0))
        throw InputError("--jitter-noise", "must lie in [0, 64] grey levels");
}

JitterDraw draw_jitter(const Jitter& jitter, int sample, int copy) {
    Random random(jitter.seed, {static_cast<std::uint64_t>(sample), static_cast<std::uint64_t>(copy)});
    JitterDraw d;
    d.scale = std::pow(jitter.scale, symmetric_unit(random));
    d.dx = jitter.shift * symmetric_unit(random);
    d.dy = jitter.shift * symmetric_unit(random);
    d.angle = jitter.rotation * symmetric_unit(random);
    return d;
}

GrayImage jittered(const GrayImage& image, const JitterDraw& d, double pixels_per_window_pixel) {
    // Output pixel p samples the input at c + s R (p - c) + k d, c the centre between the middle pixels, R the
    // rotation by the angle.
    const double cx = (image.width - 1) / 2.0, cy = (image.height - 1) / 2.0;
    const double radians = d.angle * 3.14159265358979323846 / 180.0;
    const double a = d.scale * std::cos(radians), b = d.scale * std::sin(radians);
    const cv::Matx23d to_source(a, -b, cx - a * cx + b * cy + pixels_per_window_pixel * d.dx,  //
                                b, a, cy - b * cx - a * cy + pixels_per_window_pixel * d.dy);
    cv::Mat out;
    cv::warpAffine(as_mat(image), out, to_source, cv::Size(image.width, image.height),
                   cv::INTER_LINEAR | cv::WARP_INVERSE_MAP, cv::BORDER_REPLICATE);
    return from_mat(out);
}

std::vector<PositiveSource> find_positives(const std::string& source, GroupBy group_by) {
    std::vector<PositiveSource> out;
    if (fs::is_directory(source)) {
        for (const std::string& file : folder_entries(source)) add_entry(file, group_by, out);
        return out;
    }
    if (!fs::exists(source)) throw InputError(source, "no such file or folder");
    if (is_vec_file(source)) {
        const int count = vec_sample_count(source);
        for (int i = 0; i < count; ++i) out.push_back({source, std::nullopt, source + "#" + std::to_string(i), i});
    } else if (fs::path(source).extension() == ".xml") {
        add_annotated(read_dlib_xml(source), out);
    } else if (is_inria_annotation(source)) {
        add_annotated({read_inria_annotation(source)}, out);
    } else {
        const std::vector<std::string> lines = read_lines(source);
        if (!lines.empty() && looks_like_info_line(lines.front()))
            add_annotated(read_opencv_info(source), out);
        else
            for (const std::string& line : lines) add_entry(resolve_relative(line, source), group_by, out);
    }
    if (out.empty()) throw InputError(source, "names no positive samples");
    return out;
}

std::vector<PositiveSample> load_positives(const std::vector<PositiveSource>& sources, const CropParams& params,
                                           int threads) {
    check_jitter(params.jitter);
    const int mirrors = params.mirror ? 2 : 1;
    const int copies = (1 + params.jitter.copies) * mirrors;
    std::vector<PositiveSample> samples(sources.size() * static_cast<std::size_t>(copies));
    parallel_for(
        static_cast<int>(sources.size()),
        [&](int i) {
            const PositiveSource& s = sources[static_cast<std::size_t>(i)];
            bool centred = false;
            std::size_t next = static_cast<std::size_t>(i) * static_cast<std::size_t>(copies);
            for (GrayImage& window : sample_windows(s, i, params, centred)) {
                if (params.mirror) samples[next + 1] = {mirrored(window), s.group, centred};
                samples[next] = {std::move(window), s.group, centred};
                next += static_cast<std::size_t>(mirrors);
            }
        },
        threads);
    return samples;
}

}  // namespace cascade::data
