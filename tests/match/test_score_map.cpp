// The CPU reference's score maps against cv::matchTemplate on real images (opencv-doc samples, templates cut
// from them), all six TM_* modes, grey and colour; exact matches (early exit) and peaks on copies of a
// template pasted into a real image.
//
// Tolerance: OpenCV correlates through a float DFT (its crossCorr works in CV_32F for 8-bit input), our
// cross-correlation is exact. The DFT's rounding spreads over the whole transform: its error is a few float
// epsilons of sqrt(sum T^2 * largest window's sum I^2), even at a black window. Unnormalised maps agree within
// 1e-5 of that scale, normalised ones within 1e-5 of it over their own denominator (a window of nearly no
// spread amplifies OpenCV's rounding; one with none is 0, or 1 for TM_SQDIFF_NORMED, on both sides).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <tuple>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "match/cv_planes.hpp"
#include "match/peaks.hpp"
#include "match/score_map.hpp"
#include "tests/support/test_data.hpp"

namespace {

using cascade::MatchMethod;
using cascade::match::match_planes;

const char* const kSamples = "/usr/share/doc/opencv-doc/examples/data/";

struct Case {
    const char* file;
    cv::Rect region;  // of the sample searched (kept small: every position is correlated directly)
    cv::Rect templ;   // inside the region
};

// Textured (baboon), natural (fruits), flat areas with sharp edges (opencv-logo; read as BGR its transparent
// background is black), and a constant template there (TM_CCOEFF_NORMED is 1 everywhere, as OpenCV's).
const Case kCases[] = {
    {"baboon.jpg", {100, 120, 160, 120}, {60, 40, 16, 16}},
    {"fruits.jpg", {200, 150, 150, 110}, {30, 50, 23, 31}},
    {"opencv-logo.png", {150, 150, 200, 150}, {75, 0, 32, 32}},
    {"opencv-logo.png", {150, 150, 200, 150}, {60, 30, 32, 32}},
};

// Largest score difference allowed at one position (see the file's comment).
double tolerance(MatchMethod method, double scale, double denominator) {
    if (!cascade::match_is_normed(method)) return 1e-5 * scale + 1e-3;
    return denominator > 0 ? 1e-5 * scale / denominator + 1e-6 : 1e-6;
}

void check_mode(const cv::Mat& image, const cv::Mat& templ, MatchMethod method, const std::string& label) {
    std::vector<cv::Mat> image_planes, templ_planes;
    const auto map =
        cascade::match::score_map(match_planes(image, image_planes), match_planes(templ, templ_planes), method);
    cv::Mat expected;
    cv::matchTemplate(image, templ, expected, static_cast<int>(method));
    REQUIRE(map.width == expected.cols);
    REQUIRE(map.height == expected.rows);
    cv::Mat image64, sums, squares;
    image.convertTo(image64, CV_64F);
    cv::boxFilter(image64, sums, CV_64F, templ.size(), cv::Point(0, 0), false);
    cv::boxFilter(image64.mul(image64), squares, CV_64F, templ.size(), cv::Point(0, 0), false);
    const double templ_energy = cv::norm(templ, cv::NORM_L2SQR), area = static_cast<double>(templ.total());
    double largest_window = 0;
    cv::minMaxLoc(squares.reshape(1, squares.rows), nullptr, &largest_window);
    const double scale = std::sqrt(templ_energy * largest_window * image.channels());
    cv::Scalar templ_mean, templ_sdv;
    cv::meanStdDev(templ, templ_mean, templ_sdv);
    const double templ_spread = templ_sdv.dot(templ_sdv) * area;
    int bad = 0;
    double worst = 0;
    for (int y = 0; y < map.height; ++y)
        for (int x = 0; x < map.width; ++x) {
            const int cn = image.channels();
            const double* sq = squares.ptr<double>(y) + x * cn;
            const double* s = sums.ptr<double>(y) + x * cn;
            double window_energy = 0, window_spread = 0;
            for (int c = 0; c < cn; ++c) {
                window_energy += sq[c];
                window_spread += sq[c] - s[c] * s[c] / area;
            }
            // The normalised modes' denominators: energies, or spreads about the means (TM_CCOEFF_NORMED).
            const double denominator = cascade::match_is_ccoeff(method) ? std::sqrt(templ_spread * window_spread)
                                                                        : std::sqrt(templ_energy * window_energy);
            const double d = std::abs(double(map.at(x, y)) - expected.at<float>(y, x));
            worst = std::max(worst, d);
            if (d > tolerance(method, scale, denominator)) ++bad;
        }
    INFO(label, " mode ", static_cast<int>(method), " worst difference ", worst);
    CHECK(bad == 0);
}

}  // namespace

TEST_CASE("score maps equal cv::matchTemplate's for the six modes, grey and colour, on real images") {
    for (const Case& c : kCases) {
        const auto path = cascade::test::system_file(std::string(kSamples) + c.file);
        if (!path) return;
        const cv::Mat colour = cv::imread(*path, cv::IMREAD_COLOR)(c.region).clone();
        REQUIRE(!colour.empty());
        cv::Mat grey;
        cv::cvtColor(colour, grey, cv::COLOR_BGR2GRAY);
        for (int m = 0; m < 6; ++m) {
            check_mode(grey, grey(c.templ).clone(), MatchMethod(m), std::string(c.file) + " grey");
            check_mode(colour, colour(c.templ).clone(), MatchMethod(m), std::string(c.file) + " colour");
        }
    }
}

namespace {

// The baboon sample's region with three copies of a 16x16 patch of it pasted at known places.
struct Pasted {
    cv::Mat image, templ;
    std::vector<cv::Point> at{{10, 12}, {90, 30}, {40, 85}};
};

std::optional<Pasted> pasted(int flags) {
    const auto path = cascade::test::system_file(std::string(kSamples) + "baboon.jpg");
    if (!path) return std::nullopt;
    Pasted p;
    p.image = cv::imread(*path, flags)(cv::Rect(100, 120, 160, 120)).clone();
    p.templ = p.image(cv::Rect(60, 40, 16, 16)).clone();
    for (const cv::Point& at : p.at) p.templ.copyTo(p.image(cv::Rect(at, p.templ.size())));
    return p;
}

}  // namespace

TEST_CASE("exact matches are the positions of zero squared difference: the pasted copies and the source") {
    for (const int flags : {cv::IMREAD_GRAYSCALE, cv::IMREAD_COLOR}) {
        const auto p = pasted(flags);
        if (!p) return;
        std::vector<cv::Mat> ip, tp;
        const auto image = match_planes(p->image, ip), templ = match_planes(p->templ, tp);
        const auto found = cascade::match::exact_matches(image, templ);
        const auto map = cascade::match::score_map(image, templ, MatchMethod::sqdiff);
        std::vector<std::pair<int, int>> zeros, exact;
        for (int y = 0; y < map.height; ++y)
            for (int x = 0; x < map.width; ++x)
                if (map.at(x, y) == 0.f) zeros.emplace_back(x, y);
        for (const auto& f : found) exact.emplace_back(f.x, f.y);
        CHECK(exact == zeros);
        std::vector<std::pair<int, int>> expected{{60, 40}};
        for (const cv::Point& at : p->at) expected.emplace_back(at.x, at.y);
        const auto row_major = [](auto a, auto b) { return std::tie(a.second, a.first) < std::tie(b.second, b.first); };
        std::sort(expected.begin(), expected.end(), row_major);
        CHECK(exact == expected);
    }
}

TEST_CASE("peaks: the best position is cv::minMaxLoc's, --top finds every pasted copy, best first") {
    const auto p = pasted(cv::IMREAD_COLOR);
    if (!p) return;
    std::vector<cv::Mat> ip, tp;
    const auto image = match_planes(p->image, ip), templ = match_planes(p->templ, tp);
    for (int m = 0; m < 6; ++m) {
        const auto method = MatchMethod(m);
        const auto map = cascade::match::score_map(image, templ, method);
        cv::Mat expected;
        cv::matchTemplate(p->image, p->templ, expected, m);
        cv::Point low, high;
        cv::minMaxLoc(expected, nullptr, nullptr, &low, &high);
        const cv::Point best = cascade::match_lower_is_better(method) ? low : high;
        const auto peaks = cascade::match::find_peaks(map, {16, 16}, method, {});
        REQUIRE(peaks.size() == 1);
        CHECK(peaks[0].rect.x == best.x);
        CHECK(peaks[0].rect.y == best.y);
    }
    const auto map = cascade::match::score_map(image, templ, MatchMethod::ccoeff_normed);
    const auto peaks = cascade::match::find_peaks(map, {16, 16}, MatchMethod::ccoeff_normed, {10, 0.99f, 0.3f});
    REQUIRE(peaks.size() == 4);  // the three copies and the patch they were cut from
    std::vector<std::pair<int, int>> found;
    for (const auto& d : peaks) {
        CHECK(d.score == doctest::Approx(1.0).epsilon(1e-6));
        found.emplace_back(d.rect.x, d.rect.y);
    }
    std::sort(found.begin(), found.end());
    CHECK(found == std::vector<std::pair<int, int>>{{10, 12}, {40, 85}, {60, 40}, {90, 30}});
    const auto two = cascade::match::find_peaks(map, {16, 16}, MatchMethod::ccoeff_normed, {2, 0.5f, 0.3f});
    CHECK(two.size() == 2);
}
