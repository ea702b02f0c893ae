// The FOAGDD CPU reference (common/foagdd_cpu.hpp) on real images (opencv-doc samples):
//   - its measure equals a direct double implementation of the authors' formula (full 31x31 filters built here in
//     double, true convolution over the padded image, M by plain sums, det by LU with partial pivoting) at
//     sampled pixels, within a relative 1e-4 (the float responses and the 19x19 first-scale support);
//   - the measure map commutes with rotation by 90 degrees and with mirroring (the eight orientations over half a
//     circle, the disc and the padding are symmetric under both), within twice that tolerance (both sides round);
//   - the points keep the NMS invariants (above the threshold, maxima of their 5x5 neighbourhood, in the band
//     [6, n - 5)) and pass the sigma 3 and 4.5 checks, which reject some candidates;
//   - the elimination determinant equals LU's on random Gram matrices.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>
#include <random>
#include <vector>

#include "common/foagdd_cpu.hpp"
#include "common/foagdd_pixel.hpp"
#include "tests/support/test_data.hpp"

namespace {

using namespace cascade;

GrayView view_of(const cv::Mat& m) { return {m.data, m.cols, m.rows, static_cast<int>(m.step)}; }

// A grey crop of an opencv-doc sample, or an empty Mat (skip message printed) when it is absent.
cv::Mat sample(const char* name, cv::Rect crop) {
    const auto path = test::system_file(std::string("/usr/share/doc/opencv-doc/examples/data/") + name);
    if (!path) return {};
    const cv::Mat grey = test::load_gray({name, *path});
    return grey(crop & cv::Rect(0, 0, grey.cols, grey.rows)).clone();
}

double lu_det(std::vector<double> a, int n) {
    double det = 1.0;
    for (int i = 0; i < n; ++i) {
        int p = i;
        for (int r = i + 1; r < n; ++r)
            if (std::abs(a[r * n + i]) > std::abs(a[p * n + i])) p = r;
        if (p != i) {
            for (int c = 0; c < n; ++c) std::swap(a[i * n + c], a[p * n + c]);
            det = -det;
        }
        det *= a[i * n + i];
        if (a[i * n + i] == 0.0) return 0.0;
        for (int r = i + 1; r < n; ++r) {
            const double f = a[r * n + i] / a[i * n + i];
            for (int c = i; c < n; ++c) a[r * n + c] -= f * a[i * n + c];
        }
    }
    return det;
}

constexpr int L = kFoagddLattice, kSide = 2 * L + 1;

// The first scale's full 31x31 filters in double: filters[k][(nx + 15) * 31 + ny + 15].
std::vector<std::vector<double>> double_filters() {
    std::vector<std::vector<double>> filters(kFoagddOrientations, std::vector<double>(kSide * kSide));
    for (int k = 0; k < kFoagddOrientations; ++k)
        for (int nx = -L; nx <= L; ++nx)
            for (int ny = -L; ny <= L; ++ny) filters[k][(nx + L) * kSide + ny + L] = foagdd_filter_tap(1.5, k, nx, ny);
    return filters;
}

// The authors' measure at (x, y), first scale, straight from the formula in double.
double direct_measure(const cv::Mat& grey, const std::vector<std::vector<double>>& filters, int x, int y) {
    const GrayView image = view_of(grey);
    std::vector<double> d(kFoagddOrientations * kFoagddDisc);
    for (int k = 0; k < kFoagddOrientations; ++k)
        for (int j = 0; j < kFoagddDisc; ++j) {
            int ox = 0, oy = 0;
            foagdd_disc_offset(j, ox, oy);
            double sum = 0.0;  // convolution: I(p - n) phi(n), n = (row, column)
            for (int nx = -L; nx <= L; ++nx)
                for (int ny = -L; ny <= L; ++ny)
                    sum += foagdd_pixel(image, x + ox - ny, y + oy - nx) * filters[k][(nx + L) * kSide + ny + L];
            d[k * kFoagddDisc + j] = std::abs(sum);
        }
    std::vector<double> m(64, 0.0);
    for (int k = 0; k < 8; ++k)
        for (int l = 0; l < 8; ++l)
            for (int j = 0; j < kFoagddDisc; ++j) m[k * 8 + l] += d[k * kFoagddDisc + j] * d[l * kFoagddDisc + j];
    double trace = 0.0;
    for (int k = 0; k < 8; ++k) trace += m[k * 9];
    return lu_det(m, 8) / (trace + kFoagddEps);
}

}  // namespace

TEST_CASE("foagdd: the measure equals the formula in double at sampled pixels of real images") {
    const auto filters = double_filters();
    for (const std::string name : {"building.jpg", "blox.jpg"}) {
        const cv::Mat grey = sample(name.c_str(), {40, 30, 96, 80});
        if (grey.empty()) return;
        const std::vector<double> map = foagdd_measure_map(view_of(grey));
        // the 20 strongest pixels, the image's corners (border handling), then random pixels
        std::vector<int> order(map.size());
        for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
        std::partial_sort(order.begin(), order.begin() + 20, order.end(), [&](int a, int b) { return map[a] > map[b]; });
        order.resize(20);
        for (const int i : {0, grey.cols - 1, (grey.rows - 1) * grey.cols, grey.rows * grey.cols - 1}) order.push_back(i);
        std::mt19937 random(7);
        while (order.size() < 60) order.push_back(static_cast<int>(random() % map.size()));
        int above = 0;
        double worst = 0.0;
        for (const int i : order) {
            const int x = i % grey.cols, y = i / grey.cols;
            const double ours = map[static_cast<std::size_t>(i)], theirs = direct_measure(grey, filters, x, y);
            above += theirs > kFoagddThreshold;
            const double error = std::abs(ours - theirs) / std::max(theirs, kFoagddThreshold);
            worst = std::max(worst, error);
            CHECK_MESSAGE(error <= 1e-4, name << " (" << x << "," << y << "): " << ours << " against " << theirs);
        }
        MESSAGE(name << ": largest |ours - double| / max(double, T): " << worst);
        // the sample must reach the interesting range, or the comparison proves little
        CHECK_MESSAGE(above >= 10, name << ": only " << above << " sampled pixels above the threshold");
    }
}

TEST_CASE("foagdd: the measure map commutes with rotation by 90 degrees and mirroring") {
    const cv::Mat grey = sample("building.jpg", {100, 60, 90, 70});
    if (grey.empty()) return;
    const std::vector<double> map = foagdd_measure_map(view_of(grey));
    for (const int flip : {0, 1}) {
        cv::Mat turned;
        if (flip) cv::flip(grey, turned, 1);
        else cv::rotate(grey, turned, cv::ROTATE_90_CLOCKWISE);
        const std::vector<double> tmap = foagdd_measure_map(view_of(turned));
        long differ = 0, strong = 0;
        for (int y = 0; y < grey.rows; ++y)
            for (int x = 0; x < grey.cols; ++x) {
                // where (x, y) goes: rotation clockwise (x, y) -> (rows - 1 - y, x); mirror -> (cols - 1 - x, y)
                const int tx = flip ? grey.cols - 1 - x : grey.rows - 1 - y, ty = flip ? y : x;
                const double a = map[static_cast<std::size_t>(y) * grey.cols + x];
                const double b = tmap[static_cast<std::size_t>(ty) * turned.cols + tx];
                strong += a > kFoagddThreshold;
                differ += std::abs(a - b) > 2e-4 * std::max({a, b, kFoagddThreshold});
            }
        CHECK_MESSAGE(differ == 0, std::string(flip ? "mirror: " : "rotation: ") << differ << " pixels differ");
        CHECK(strong > 50);
    }
}

TEST_CASE("foagdd: points are the candidates' survivors, maxima above the threshold, and the larger scales reject some") {
    const cv::Mat grey = sample("building.jpg", {0, 0, 320, 240});
    if (grey.empty()) return;
    const GrayView image = view_of(grey);
    const std::vector<double> map = foagdd_measure_map(image);
    const auto candidates = foagdd_candidates(map, grey.cols, grey.rows, kFoagddThreshold);
    const auto points = foagdd_keypoints(image);
    const std::vector<float> taps1 = foagdd_taps(1), taps2 = foagdd_taps(2);
    std::size_t next = 0;
    int rejected = 0;
    for (const Keypoint& c : candidates) {
        CHECK(c.x >= 6);
        CHECK(c.y >= 6);
        CHECK(c.x < grey.cols - 5);
        CHECK(c.y < grey.rows - 5);
        CHECK(c.measure > kFoagddThreshold);
        for (int dy = -2; dy <= 2; ++dy)
            for (int dx = -2; dx <= 2; ++dx) CHECK(map[static_cast<std::size_t>(c.y + dy) * grey.cols + c.x + dx] <= c.measure);
        const bool kept = foagdd_point_measure(image, taps1, 1, c.x, c.y) > kFoagddThreshold &&
                          foagdd_point_measure(image, taps2, 2, c.x, c.y) > kFoagddThreshold;
        const bool listed = next < points.size() && points[next].x == c.x && points[next].y == c.y;
        CHECK_MESSAGE(kept == listed, "candidate (" << c.x << "," << c.y << ")");
        if (listed) CHECK(points[next++].measure == c.measure);
        rejected += !kept;
    }
    CHECK(next == points.size());
    CHECK(points.size() > 20);
    CHECK(rejected > 0);
    // the dense map at the first scale equals the point measure computed at the point
    for (const Keypoint& p : points) CHECK(foagdd_point_measure(image, foagdd_taps(0), 0, p.x, p.y) == p.measure);
}

TEST_CASE("foagdd: the elimination determinant equals LU's on random Gram matrices") {
    std::mt19937 random(3);
    std::uniform_real_distribution<float> value(0.f, 300.f);
    for (int trial = 0; trial < 200; ++trial) {
        float d[8][kFoagddDisc];
        for (auto& row : d)
            for (float& v : row) v = value(random);
        const double measure = foagdd_measure([&](int k, int j) { return d[k][j]; });
        std::vector<double> m(64, 0.0);
        for (int k = 0; k < 8; ++k)
            for (int l = 0; l < 8; ++l)
                for (int j = 0; j < kFoagddDisc; ++j) m[k * 8 + l] += double(d[k][j]) * d[l][j];
        double trace = 0.0;
        for (int k = 0; k < 8; ++k) trace += m[k * 9];
        CHECK(measure == doctest::Approx(lu_det(m, 8) / (trace + kFoagddEps)).epsilon(1e-9));
    }
}
