// Region covariance on real images (opencv-doc samples): window covariances from the int64 integral images
// equal a direct double computation over features built with OpenCV's own Sobel; the Foerstner distance
// (Cholesky + Jacobi) and the JBLD divergence equal a direct computation through OpenCV's eigen() and
// determinant() in double; flat windows stay finite (regularised); a window cut from a photo is found there,
// at distance 0, among every position of the photo. split_into lays a frame out as the GPU matcher's staging.
#include <doctest/doctest.h>

#include <cmath>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "match/covariance_map.hpp"
#include "match/cv_planes.hpp"
#include "match/peaks.hpp"
#include "tests/support/test_data.hpp"

namespace {

using namespace cascade;

const std::string kSamples = "/usr/share/doc/opencv-doc/examples/data/";

struct Loaded {
    cv::Mat colour, grey;
    std::vector<cv::Mat> split;
    MatchPlanes planes;
    CovarianceIntegrals integrals;
};

std::optional<Loaded> load(const std::string& file, cv::Rect region, CovarianceLayout layout) {
    const auto path = test::system_file(kSamples + file);
    if (!path) return std::nullopt;
    Loaded l;
    l.colour = cv::imread(*path, cv::IMREAD_COLOR)(region).clone();
    cv::cvtColor(l.colour, l.grey, cv::COLOR_BGR2GRAY);
    l.planes = match::match_planes(layout.channels == 3 ? l.colour : l.grey, l.split);
    const GrayView grey{l.grey.data, l.grey.cols, l.grey.rows, static_cast<int>(l.grey.step)};
    build_covariance_integrals(l.planes, grey, layout, l.integrals);
    return l;
}

// The features of every pixel of `window` with OpenCV's Sobel (BORDER_REFLECT_101), one row per pixel.
cv::Mat opencv_features(const Loaded& l, CovarianceLayout layout, cv::Rect window) {
    cv::Mat ix, iy, ixx, iyy;
    cv::Sobel(l.grey, ix, CV_16S, 1, 0, 3);  // exact: |values| <= 2040
    cv::Sobel(l.grey, iy, CV_16S, 0, 1, 3);
    cv::Sobel(l.grey, ixx, CV_16S, 2, 0, 3);
    cv::Sobel(l.grey, iyy, CV_16S, 0, 2, 3);
    cv::Mat rows(window.area(), layout.dim(), CV_64F);
    int r = 0;
    for (int y = window.y; y < window.y + window.height; ++y)
        for (int x = window.x; x < window.x + window.width; ++x, ++r) {
            double* f = rows.ptr<double>(r);
            int n = 0;
            if (layout.extended) {
                f[n++] = x;
                f[n++] = y;
            }
            for (int c = layout.channels - 1; c >= 0; --c)
                f[n++] = layout.channels == 3 ? l.colour.at<cv::Vec3b>(y, x)[c] : l.grey.at<uchar>(y, x);
            if (!layout.extended) {
                f[n++] = ix.at<short>(y, x);
                f[n++] = iy.at<short>(y, x);
            } else {
                for (const cv::Mat* m : {&ix, &iy, &ixx, &iyy}) f[n++] = std::abs(m->at<short>(y, x));
            }
        }
    return rows;
}

cv::Mat as_mat(const double* values, int d) { return cv::Mat(d, d, CV_64F, const_cast<double*>(values)).clone(); }

// Foerstner's distance through B^-1/2 A B^-1/2 with OpenCV's symmetric eigen solver (double).
double opencv_forstner(const cv::Mat& a, const cv::Mat& b) {
    cv::Mat values, vectors;
    cv::eigen(b, values, vectors);
    cv::Mat inv_sqrt = cv::Mat::zeros(b.size(), CV_64F);
    for (int i = 0; i < b.rows; ++i) inv_sqrt.at<double>(i, i) = 1 / std::sqrt(values.at<double>(i));
    const cv::Mat root = vectors.t() * inv_sqrt * vectors;
    cv::Mat lambda;
    cv::eigen(root * a * root, lambda);
    double sum = 0;
    for (int i = 0; i < lambda.rows; ++i) sum += std::pow(std::log(lambda.at<double>(i)), 2);
    return std::sqrt(sum);
}

double opencv_jbld(const cv::Mat& a, const cv::Mat& b) {
    return std::log(cv::determinant((a + b) / 2)) - (std::log(cv::determinant(a)) + std::log(cv::determinant(b))) / 2;
}

const CovarianceLayout kLayouts[] = {{3, false}, {3, true}, {1, false}, {1, true}};

}  // namespace

TEST_CASE("window covariances from the int64 integral images equal a direct double computation") {
    for (const CovarianceLayout layout : kLayouts) {
        const auto l = load("fruits.jpg", {100, 80, 200, 150}, layout);
        if (!l) return;
        const int d = layout.dim();
        for (const cv::Rect window : {cv::Rect(0, 0, 31, 17), cv::Rect(60, 40, 80, 64), cv::Rect(150, 100, 50, 50)}) {
            std::vector<double> ours(static_cast<std::size_t>(d) * d);
            window_covariance(l->integrals.view(), window.x, window.y, window.width, window.height, ours.data());
            cv::Mat covariance, mean;
            cv::calcCovarMatrix(opencv_features(*l, layout, window), covariance, mean,
                                cv::COVAR_NORMAL | cv::COVAR_ROWS | cv::COVAR_SCALE, CV_64F);
            covariance *= double(window.area()) / (window.area() - 1);  // COVAR_SCALE divides by N; we by N - 1
            covariance += cv::Mat::eye(d, d, CV_64F) / 12;
            INFO("d ", d, " window ", window.x, ",", window.y, " ", window.width, "x", window.height);
            for (int i = 0; i < d * d; ++i)
                CHECK(ours[static_cast<std::size_t>(i)] ==
                      doctest::Approx(covariance.at<double>(i / d, i % d)).epsilon(1e-10).scale(1));
        }
    }
}

TEST_CASE("Foerstner distance and JBLD divergence equal OpenCV's eigen() and determinant() in double") {
    for (const CovarianceLayout layout : kLayouts) {
        const auto l = load("baboon.jpg", {50, 50, 300, 250}, layout);
        if (!l) return;
        const int d = layout.dim();
        const cv::Rect windows[] = {{10, 10, 40, 40}, {150, 100, 60, 45}, {200, 180, 90, 60}, {30, 150, 25, 80}};
        for (const cv::Rect& wa : windows)
            for (const cv::Rect& wb : windows) {
                std::vector<double> a(static_cast<std::size_t>(d) * d), b(a.size());
                window_covariance(l->integrals.view(), wa.x, wa.y, wa.width, wa.height, a.data());
                window_covariance(l->integrals.view(), wb.x, wb.y, wb.width, wb.height, b.data());
                const double forstner = forstner_distance(a.data(), b.data(), d);
                const double jbld = jbld_divergence(a.data(), b.data(), d);
                const cv::Mat ma = as_mat(a.data(), d), mb = as_mat(b.data(), d);
                CHECK(forstner == doctest::Approx(opencv_forstner(ma, mb)).epsilon(1e-9));
                CHECK(jbld == doctest::Approx(opencv_jbld(ma, mb)).epsilon(1e-8).scale(1e-9));
                if (&wa == &wb) CHECK(forstner == doctest::Approx(0).scale(1e-6));
            }
    }
}

TEST_CASE("flat windows are regularised: finite distances, a window cut from a photo is found at distance 0") {
    const auto logo = load("opencv-logo.png", {0, 0, 200, 200}, {3, false});  // black (transparent) corner
    if (!logo) return;
    std::vector<double> flat(25), other(25);
    window_covariance(logo->integrals.view(), 0, 0, 20, 20, flat.data());
    window_covariance(logo->integrals.view(), 150, 60, 40, 40, other.data());
    CHECK(std::isfinite(forstner_distance(flat.data(), other.data(), 5)));
    CHECK(std::isfinite(jbld_divergence(flat.data(), other.data(), 5)));

    for (const CovMetric metric : {CovMetric::forstner, CovMetric::jbld}) {
        const auto photo = load("fruits.jpg", {0, 0, 320, 240}, {3, false});
        cv::Mat templ_colour = photo->colour(cv::Rect(120, 80, 48, 40)).clone(), templ_grey;
        cv::cvtColor(templ_colour, templ_grey, cv::COLOR_BGR2GRAY);
        std::vector<cv::Mat> split;
        CovarianceIntegrals templ;
        // The template's own integrals: its Sobel borders are reflected inside it, so its covariance differs a
        // little from the window's in the photo; the best position is still the window it was cut from.
        const GrayView grey{templ_grey.data, templ_grey.cols, templ_grey.rows, static_cast<int>(templ_grey.step)};
        build_covariance_integrals(match::match_planes(templ_colour, split), grey, {3, false}, templ);
        const auto target = match::target_covariance(templ);
        const auto map = match::covariance_map(photo->integrals, {48, 40}, target, metric, 4);
        const auto best = match::find_peaks(map, {48, 40}, MatchMethod::sqdiff, {});
        REQUIRE(best.size() == 1);
        CHECK(best[0].rect.x == 120);
        CHECK(best[0].rect.y == 80);
    }
}

TEST_CASE("split_into writes a frame's channels, then its grey image, as planes of width x height bytes") {
    const auto photo = load("fruits.jpg", {3, 5, 301, 190}, {3, false});  // a region: rows not contiguous
    if (!photo) return;
    for (const cv::Mat& image : {photo->colour, photo->grey}) {
        const int w = image.cols, h = image.rows, channels = image.channels();
        std::vector<std::uint8_t> memory(static_cast<std::size_t>(w) * h * (channels + 1));
        const std::pair<MatchPlanes, GrayView> split = match::split_into(image, photo->grey, memory.data());
        const MatchPlanes& planes = split.first;
        std::vector<cv::Mat> expected;
        cv::split(image, expected);
        expected.push_back(photo->grey);
        REQUIRE(planes.channels == channels);
        for (int c = 0; c <= channels; ++c) {
            const GrayView& v = c < channels ? planes.planes[c] : split.second;
            CHECK(v.data == memory.data() + static_cast<std::size_t>(c) * w * h);
            CHECK(v.stride == w);
            const cv::Mat plane(h, w, CV_8UC1, const_cast<std::uint8_t*>(v.data));
            CHECK(cv::countNonZero(plane != expected[static_cast<std::size_t>(c)]) == 0);
        }
    }
}

TEST_CASE("split_rows_into, strip by strip, writes what split_into writes") {
    const auto photo = load("fruits.jpg", {3, 5, 301, 190}, {3, false});
    if (!photo) return;
    const cv::Mat& image = photo->colour;
    const std::size_t bytes = static_cast<std::size_t>(image.cols) * image.rows * 4;
    std::vector<std::uint8_t> whole(bytes), strips(bytes, 0);
    match::split_into(image, photo->grey, whole.data());
    for (const int top : {0, 47, 48, 120, 189})  // uneven strips; the last one a single row
        match::split_rows_into(image, photo->grey, strips.data(), top,
                               (top == 0 ? 47 : top == 47 ? 1 : top == 48 ? 72 : top == 120 ? 69 : 1));
    CHECK(strips == whole);
}
