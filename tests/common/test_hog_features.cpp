// HoG features: the integer gradient votes against floating-point geometry, the block pool's documented rule
// and size, and block descriptors read from integral histograms against a direct computation on real crops.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <set>
#include <tuple>

#include "common/hog_block_pool.hpp"
#include "common/hog_eval.hpp"
#include "common/hog_features.hpp"
#include "tests/support/test_data.hpp"

namespace fs = std::filesystem;
using namespace cascade;

namespace {

constexpr double kPi = 3.14159265358979323846;

GrayView view_of_mat(const cv::Mat& m) { return {m.data, m.cols, m.rows, static_cast<int>(m.step)}; }

// The first `count` files of a folder, sorted.
std::vector<std::string> first_files(const fs::path& folder, std::size_t count) {
    std::vector<std::string> files;
    for (const auto& e : fs::directory_iterator(folder)) files.push_back(e.path().string());
    std::sort(files.begin(), files.end());
    files.resize(std::min(files.size(), count));
    return files;
}

cv::Mat read_gray(const std::string& path) {
    const cv::Mat colour = cv::imread(path, cv::IMREAD_COLOR);
    REQUIRE_MESSAGE(!colour.empty(), "cannot read " << path);
    cv::Mat gray;
    cv::cvtColor(colour, gray, cv::COLOR_BGR2GRAY);
    return gray;
}

// Cell sums of a block computed pixel by pixel, without integral images.
void direct_cells(const GrayView& image, int x0, int y0, Rect block, std::uint32_t cells[kHogBlockDims]) {
    std::fill(cells, cells + kHogBlockDims, 0u);
    const int cw = block.width / 2, ch = block.height / 2;
    for (int y = 0; y < block.height; ++y)
        for (int x = 0; x < block.width; ++x) {
            const HogVote v = hog_pixel_vote(image, x0 + block.x + x, y0 + block.y + y);
            const int cell = (y >= ch ? 2 : 0) + (x >= cw ? 1 : 0);
            cells[cell * kHogBins + v.bin] += v.magnitude;
        }
}

}  // namespace

TEST_CASE("orientation bins and magnitudes match atan2 and sqrt for every gradient") {
    int near_boundary = 0;
    for (int gy = -255; gy <= 255; ++gy)
        for (int gx = -255; gx <= 255; ++gx) {
            if (gx == 0 && gy == 0) continue;
            double degrees = std::atan2(gy, gx) * 180.0 / kPi;
            if (degrees < 0.0) degrees += 180.0;
            if (degrees >= 180.0) degrees -= 180.0;
            const int bin = hog_orientation_bin(gx, gy);
            const double to_boundary = std::abs(degrees / 20.0 - std::round(degrees / 20.0)) * 20.0;
            if (to_boundary < 0.01) {
                ++near_boundary;
                CHECK(std::abs(bin - static_cast<int>(std::round(degrees / 20.0)) % kHogBins) <= 1);
            } else if (bin != static_cast<int>(degrees / 20.0)) {
                FAIL("gradient (" << gx << ", " << gy << ") at " << degrees << " degrees went to bin " << bin);
            }
            const double exact = kHogMagnitudeScale * std::sqrt(static_cast<double>(gx * gx + gy * gy));
            const std::uint32_t magnitude = hog_magnitude(gx, gy);
            if (std::abs(static_cast<double>(magnitude) - exact) > 0.5)
                FAIL("magnitude of (" << gx << ", " << gy << ") is " << magnitude << ", expected about " << exact);
        }
    CHECK(hog_magnitude(255, 255) == kHogMaxMagnitude);
    CHECK(hog_orientation_bin(0, 0) == 0);
    MESSAGE(near_boundary << " gradients lie within 0.01 degrees of a bin boundary");
}

TEST_CASE("the block pool follows its documented rule and has the thesis's 5029 blocks") {
    const std::vector<Rect> pool = hog_block_pool({64, 128});
    CHECK(pool.size() == static_cast<std::size_t>(kHogPoolSize));
    CHECK(kHogPoolSize == 5029);
    std::set<std::tuple<int, int, int, int>> distinct;
    for (const Rect& b : pool) {
        distinct.insert({b.x, b.y, b.width, b.height});
        const int shorter = std::min(b.width, b.height), longer = std::max(b.width, b.height);
        CHECK((longer == shorter || longer == 2 * shorter));
        CHECK(shorter >= 12);
        CHECK(b.width % 2 == 0);
        CHECK(b.height % 2 == 0);
        CHECK(b.x >= 0);
        CHECK(b.y >= 0);
        CHECK(b.x + b.width <= 64);
        CHECK(b.y + b.height <= 128);
        const int step = hog_block_step(b.width, b.height);
        CHECK(step == (shorter < 16 ? 4 : shorter < 24 ? 6 : 8));
        CHECK(b.x % step == 0);
        CHECK(b.y % step == 0);
    }
    CHECK(distinct.size() == pool.size());
    CHECK(hog_block_pool({8, 8}).empty());
}

TEST_CASE("integral-histogram block descriptors equal a direct computation on real crops") {
    const auto data = test::shared_data_dir();
    if (!data) return;
    std::vector<std::string> files = first_files(fs::path(*data) / "inria/96X160H96/Train/pos", 6);
    const std::vector<std::string> scenes = first_files(fs::path(*data) / "negatives_web", 2);
    files.insert(files.end(), scenes.begin(), scenes.end());
    const std::vector<Rect> pool = hog_block_pool({64, 128});

    int compared = 0;
    double worst_float_difference = 0.0;
    for (const std::string& file : files) {
        const cv::Mat gray = read_gray(file);
        const GrayView image = view_of_mat(gray);
        HogIntegral integral;
        compute_hog_integral(image, integral);
        const HogIntegralView sums = integral.view();

        // Independent floating-point gradients: OpenCV's [-1, 0, 1] filters with replicated borders.
        cv::Mat gx, gy;
        cv::filter2D(gray, gx, CV_32F, cv::Mat(cv::Matx13f(-1, 0, 1)), {-1, -1}, 0, cv::BORDER_REPLICATE);
        cv::filter2D(gray, gy, CV_32F, cv::Mat(cv::Matx31f(-1, 0, 1)), {-1, -1}, 0, cv::BORDER_REPLICATE);

        // Windows: the crop's centre (16, 16) and its corners; all 5029 blocks at the centre, every 7th elsewhere.
        const int origins[][2] = {{16, 16}, {0, 0}, {gray.cols - 64, gray.rows - 128}};
        for (const auto& origin : origins) {
            for (std::size_t k = 0; k < pool.size(); k += origin[0] == 16 && origin[1] == 16 ? 1 : 7) {
                const Rect& block = pool[k];
                std::uint32_t from_integral[kHogBlockDims], direct[kHogBlockDims];
                hog_block_cells(sums, origin[0], origin[1], block, from_integral);
                direct_cells(image, origin[0], origin[1], block, direct);
                for (int i = 0; i < kHogBlockDims; ++i)
                    if (from_integral[i] != direct[i])
                        FAIL(file << ": block " << k << " element " << i << ": " << from_integral[i] << " from the integral, "
                                  << direct[i] << " directly");

                // Against float geometry (atan2, sqrt): the same up to bin-boundary pixels and rounding.
                double reference[kHogBlockDims] = {}, norm2 = 0.0;
                const int cw = block.width / 2, ch = block.height / 2;
                for (int y = 0; y < block.height; ++y)
                    for (int x = 0; x < block.width; ++x) {
                        const int px = origin[0] + block.x + x, py = origin[1] + block.y + y;
                        const double dx = gx.at<float>(py, px), dy = gy.at<float>(py, px);
                        const double degrees = std::fmod(std::atan2(dy, dx) * 180.0 / kPi + 360.0, 180.0);
                        const int bin = static_cast<int>(degrees / 20.0);
                        const int cell = (y >= ch ? 2 : 0) + (x >= cw ? 1 : 0);
                        reference[cell * kHogBins + bin] += kHogMagnitudeScale * std::hypot(dx, dy);
                    }
                for (double r : reference) norm2 += r * r;
                float v[kHogBlockDims];
                hog_normalise(from_integral, block.width * block.height, v);
                for (int i = 0; i < kHogBlockDims; ++i) {
                    const double expected = reference[i] / (std::sqrt(norm2) + block.width * block.height);
                    worst_float_difference = std::max(worst_float_difference, std::abs(v[i] - expected));
                }
                ++compared;
            }
        }
    }
    MESSAGE(compared << " blocks compared exactly; largest difference from float geometry "
                     << worst_float_difference);
    CHECK(compared > 30000);
    CHECK(worst_float_difference < 0.01);
}

TEST_CASE("normalised descriptors have at most unit length and weak responses follow their cuts") {
    std::uint32_t cells[kHogBlockDims] = {};
    float v[kHogBlockDims];
    hog_normalise(cells, 144, v);
    for (float x : v) CHECK(x == 0.f);  // a flat block stays zero
    for (int i = 0; i < kHogBlockDims; ++i) cells[i] = static_cast<std::uint32_t>(1000 + 37 * i);
    hog_normalise(cells, 144, v);
    double norm2 = 0.0;
    for (float x : v) norm2 += static_cast<double>(x) * x;
    CHECK(norm2 <= 1.0);
    CHECK(norm2 > 0.95);

    HogWeak weak;
    weak.weights[3] = 1.f;
    weak.bias = -v[3];
    set_vote(weak, 0.75f);
    CHECK(hog_projection(weak, v) == 0.f);
    CHECK(hog_response(weak, hog_projection(weak, v)) == 0.75f);  // exactly on the cut: the upper bin (>= 0)
    weak.bias = std::nextafter(-v[3], -1.f);
    CHECK(hog_response(weak, hog_projection(weak, v)) == -0.75f);

    // Real-valued: responses[number of cuts reached], plus slope * p.
    weak.num_cuts = 3;
    const float cuts[] = {-0.5f, 0.f, 0.25f}, responses[] = {-2.f, -1.f, 1.f, 3.f};
    std::copy(std::begin(cuts), std::end(cuts), weak.cuts);
    std::copy(std::begin(responses), std::end(responses), weak.responses);
    CHECK(hog_response(weak, -0.75f) == -2.f);
    CHECK(hog_response(weak, -0.5f) == -1.f);
    CHECK(hog_response(weak, std::nextafter(0.f, -1.f)) == -1.f);
    CHECK(hog_response(weak, 0.f) == 1.f);
    CHECK(hog_response(weak, 0.25f) == 3.f);
    CHECK(hog_response(weak, 100.f) == 3.f);
    weak.slope = 2.f;
    CHECK(hog_response(weak, 0.125f) == 1.25f);
    CHECK(hog_response(weak, -1.f) == -4.f);
}
