// The region covariance family on real images: grid integrals against sums taken pixel by pixel, a rectangle's
// covariance against a two-pass computation, the shared logarithm and Jacobi decompositions (with eigenvectors,
// and packed with a weight matrix carried along), the 36-vector against the matrix it came from, and the weak
// learner's response composed by hand.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "common/cov_eval.hpp"
#include "common/cov_features.hpp"
#include "tests/support/cov_test_model.hpp"
#include "tests/support/test_data.hpp"

using namespace cascade;

namespace {

constexpr int d = kCovFeatures;

GrayView view_of_mat(const cv::Mat& gray) {
    return {gray.data, gray.cols, gray.rows, static_cast<int>(gray.step)};
}

// The first few real images (opencv-doc samples, vtest frames), at most 640 pixels wide to keep the test short.
std::vector<cv::Mat> some_images() {
    std::vector<cv::Mat> out;
    for (const test::ImageSource& source : test::real_images()) {
        cv::Mat gray = test::load_gray(source);
        if (gray.cols >= 64 && gray.rows >= 128 && gray.cols <= 800) out.push_back(gray);
        if (out.size() == 3) break;
    }
    if (out.empty()) MESSAGE("SKIP: no real test images found");
    return out;
}

// The covariance of rect (x, y, w, h) of `image`, two passes in long double from the pixels' features.
std::vector<double> direct_covariance(const GrayView& image, int x0, int y0, int w, int h) {
    long double mean[d] = {};
    std::vector<std::array<int, d>> f;
    for (int y = y0; y < y0 + h; ++y)
        for (int x = x0; x < x0 + w; ++x) {
            std::array<int, d> p;
            cov_pixel_features(image, x, y, p.data());
            for (int i = 0; i < d; ++i) mean[i] += p[i];
            f.push_back(p);
        }
    const long double n = static_cast<long double>(f.size());
    for (long double& m : mean) m /= n;
    std::vector<double> cov(d * d);
    for (int i = 0; i < d; ++i)
        for (int j = 0; j < d; ++j) {
            long double s = 0;
            for (const auto& p : f) s += (p[i] - mean[i]) * (p[j] - mean[j]);
            cov[i * d + j] = static_cast<double>(s / (n - 1)) + (i == j ? covariance_regularisation : 0);
        }
    return cov;
}

// The largest magnitude of a matrix's entries: the scale of its rounding errors.
double largest(const std::vector<double>& m) {
    double out = 0;
    for (const double x : m) out = std::max(out, std::fabs(x));
    return out;
}

// a * b for row-major 8x8 matrices, in long double.
std::vector<double> product(const std::vector<double>& a, const std::vector<double>& b) {
    std::vector<double> out(d * d);
    for (int i = 0; i < d; ++i)
        for (int j = 0; j < d; ++j) {
            long double s = 0;
            for (int k = 0; k < d; ++k) s += static_cast<long double>(a[i * d + k]) * b[k * d + j];
            out[i * d + j] = static_cast<double>(s);
        }
    return out;
}

}  // namespace

TEST_CASE("cov pixel features: magnitude, angle and derivatives are the documented integers") {
    // A 5x1 ramp 10, 20, 40, 40, 0 and a 1x3 column: clamped centred and second differences.
    const std::uint8_t ramp[5] = {10, 20, 40, 40, 0};
    const GrayView row{ramp, 5, 1, 5};
    int f[d];
    cov_pixel_features(row, 1, 0, f);  // Ix = 40 - 10, Ixx = 10 + 40 - 40
    CHECK(f[0] == 1);
    CHECK(f[2] == 30);
    CHECK(f[3] == 0);
    CHECK(f[4] == 30);
    CHECK(f[5] == 10);
    CHECK(f[7] == 64);  // Iy = 0: a right angle
    cov_pixel_features(row, 4, 0, f);  // clamped: Ix = 0 - 40, Ixx = 40 + 0 - 0
    CHECK(f[2] == 40);
    CHECK(f[5] == 40);
    const std::uint8_t column[3] = {0, 30, 40};
    cov_pixel_features({column, 1, 3, 1}, 0, 1, f);  // Iy = 40, Iyy = 0 + 40 - 60
    CHECK(f[1] == 1);
    CHECK(f[3] == 40);
    CHECK(f[6] == 20);
    CHECK(f[7] == 0);
    // Magnitude and angle of (3, 4): 5 and round(64 * 3 / 7) = 27 (atan(3/4) is 23.6 of 64 units).
    const std::uint8_t square[9] = {0, 0, 0, 0, 0, 3, 0, 4, 0};
    cov_pixel_features({square, 3, 3, 3}, 1, 1, f);
    CHECK(f[2] == 3);
    CHECK(f[3] == 4);
    CHECK(f[4] == 5);
    CHECK(f[7] == 27);
}

TEST_CASE("cov planes: grid corners hold the pixels' sums -- a rectangle's covariance is the direct one") {
    for (const cv::Mat& gray : some_images()) {
        const GrayView image = view_of_mat(gray);
        CovPlanes planes;
        compute_cov_planes(image, planes);
        CHECK(planes.columns == image.width / kCovGrid + 1);
        CHECK(planes.rows == image.height / kCovGrid + 1);
        // One corner summed pixel by pixel.
        const int cx = 12 * kCovGrid, cy = 9 * kCovGrid;
        std::int64_t sums[kCovPlanes] = {};
        int f[d];
        for (int y = 0; y < cy; ++y)
            for (int x = 0; x < cx; ++x) {
                cov_pixel_features(image, x, y, f);
                add_cov_pixel(f, sums);
            }
        const std::int64_t* corner = planes.sampler().at(cx, cy);
        for (int k = 0; k < kCovPlanes; ++k) CHECK(corner[k] == sums[k]);
        // Rectangles of several sizes against the two-pass covariance.
        std::mt19937 random(7);
        for (int trial = 0; trial < 20; ++trial) {
            const int w = kCovGrid * (1 + static_cast<int>(random() % 16)), h = kCovGrid * (1 + static_cast<int>(random() % 32));
            const int x = kCovGrid * static_cast<int>(random() % static_cast<unsigned>((image.width - w) / kCovGrid + 1));
            const int y = kCovGrid * static_cast<int>(random() % static_cast<unsigned>((image.height - h) / kCovGrid + 1));
            double cov[d * d];
            window_covariance<d>(planes.sampler(), x, y, w, h, cov);
            const std::vector<double> direct = direct_covariance(image, x, y, w, h);
            for (int k = 0; k < d * d; ++k) CHECK(cov[k] == doctest::Approx(direct[k]).epsilon(1e-9).scale(1e-9));
        }
    }
}

TEST_CASE("exact::log is within 2 units in the last place of the C library's, and exact on powers of two") {
    std::mt19937_64 random(3);
    std::uniform_real_distribution<double> exponent(-28.0, 28.0);
    for (int i = 0; i < 20000; ++i) {
        const double x = std::exp(exponent(random));
        const double ours = exact::log(x), libm = std::log(x);
        CHECK(std::fabs(ours - libm) <= 2 * std::fabs(std::nextafter(libm, 0.0) - libm) + 1e-300);
    }
    CHECK(exact::log(1.0) == 0.0);
    CHECK(exact::log(1024.0) == doctest::Approx(10 * std::log(2.0)).epsilon(1e-16));
}

TEST_CASE("jacobi_eigen: a = V diag(values) V^T, V orthogonal") {
    std::mt19937 random(11);
    std::normal_distribution<double> normal;
    for (int trial = 0; trial < 50; ++trial) {
        std::vector<double> b(d * d), a(d * d);
        for (double& x : b) x = normal(random);
        for (int i = 0; i < d; ++i)  // a = b b^T + I: symmetric positive definite
            for (int j = 0; j < d; ++j) {
                double s = i == j ? 1 : 0;
                for (int k = 0; k < d; ++k) s += b[i * d + k] * b[j * d + k];
                a[i * d + j] = s;
            }
        std::vector<double> work = a, values(d), v(d * d);
        jacobi_eigen<d>(work.data(), values.data(), v.data());
        for (int i = 0; i < d; ++i)
            for (int j = 0; j < d; ++j) {
                long double back = 0, gram = 0;
                for (int k = 0; k < d; ++k) {
                    back += static_cast<long double>(v[i * d + k]) * values[k] * v[j * d + k];
                    gram += static_cast<long double>(v[k * d + i]) * v[k * d + j];
                }
                CHECK(std::fabs(static_cast<double>(back) - a[i * d + j]) < 1e-12 * largest(a));
                CHECK(std::fabs(static_cast<double>(gram) - (i == j ? 1.0 : 0.0)) < 1e-13);
            }
    }
}

TEST_CASE("jacobi_diagonalise: the eigenvalues of jacobi_eigen, w carried to V^T w V") {
    std::mt19937 random(12);
    std::normal_distribution<double> normal;
    for (int trial = 0; trial < 50; ++trial) {
        std::vector<double> b(d * d), a(d * d), w(d * d);
        for (double& x : b) x = normal(random);
        for (int i = 0; i < d; ++i)  // a = b b^T + I: symmetric positive definite; w symmetric
            for (int j = 0; j <= i; ++j) {
                double s = i == j ? 1 : 0;
                for (int k = 0; k < d; ++k) s += b[i * d + k] * b[j * d + k];
                a[i * d + j] = a[j * d + i] = s;
                w[i * d + j] = w[j * d + i] = normal(random);
            }
        double packed_a[kPackedSize], packed_w[kPackedSize];
        for (int i = 0; i < d; ++i)
            for (int j = i; j < d; ++j) {
                packed_a[packed_index(i, j)] = a[i * d + j];
                packed_w[packed_index(j, i)] = w[i * d + j];
            }
        jacobi_diagonalise(packed_a, packed_w);
        std::vector<double> work = a, values(d), v(d * d);
        jacobi_eigen<d>(work.data(), values.data(), v.data());
        // Pair each eigenvalue with jacobi_eigen's nearest (distinct: a random matrix's), then compare
        // (V^T w V)_mm with v_m^T w v_m, which no choice of the eigenvector's sign changes.
        for (int m = 0; m < d; ++m) {
            const double l = packed_a[packed_index(m, m)];
            int nearest = 0;
            for (int k = 1; k < d; ++k)
                if (std::fabs(values[k] - l) < std::fabs(values[nearest] - l)) nearest = k;
            CHECK(std::fabs(values[nearest] - l) < 1e-12 * largest(a));
            long double quadratic = 0;
            for (int i = 0; i < d; ++i)
                for (int j = 0; j < d; ++j)
                    quadratic += static_cast<long double>(v[i * d + nearest]) * w[i * d + j] * v[j * d + nearest];
            CHECK(std::fabs(static_cast<double>(quadratic) - packed_w[packed_index(m, m)]) < 1e-12 * largest(w));
        }
        for (int i = 0; i < d; ++i)
            for (int j = i + 1; j < d; ++j) CHECK(std::fabs(packed_a[packed_index(i, j)]) < 1e-14 * largest(a));
    }
}

TEST_CASE("cov_log_vector: exp of the vector's matrix gives the covariance back -- tangent at itself is zero") {
    for (const cv::Mat& gray : some_images()) {
        const GrayView image = view_of_mat(gray);
        CovPlanes planes;
        compute_cov_planes(image, planes);
        double scale[d], c[d * d], v[kCovDims];
        cov_window_scales(planes.sampler(), 0, 0, {64, 128}, scale);
        cov_rect_covariance(planes.sampler(), 0, 0, {16, 32, 32, 48}, scale, c);
        const std::vector<double> original(c, c + d * d);
        cov_log_vector(kCovLogEuclidean, nullptr, c, v);
        // The symmetric logarithm L from v, then exp(L) by its own eigen-decomposition.
        std::vector<double> l(d * d);
        for (int i = 0, k = 0; i < d; ++i)
            for (int j = i; j < d; ++j, ++k) l[i * d + j] = l[j * d + i] = i == j ? v[k] : v[k] / std::sqrt(2.0);
        std::vector<double> work = l, mu(d), q(d * d), e(d * d);
        jacobi_eigen<d>(work.data(), mu.data(), q.data());
        for (int i = 0; i < d; ++i)
            for (int j = 0; j < d; ++j) e[i * d + j] = q[i * d + j] * std::exp(mu[j]);
        std::vector<double> qt(d * d);
        for (int i = 0; i < d; ++i)
            for (int j = 0; j < d; ++j) qt[i * d + j] = q[j * d + i];
        const std::vector<double> back = product(e, qt);
        for (int k = 0; k < d * d; ++k) CHECK(std::fabs(back[k] - original[k]) < 1e-10 * largest(original));
        // The window's own normalised covariance has a unit diagonal.
        double whole[d * d];
        cov_rect_covariance(planes.sampler(), 0, 0, {0, 0, 64, 128}, scale, whole);
        for (int i = 0; i < d; ++i) CHECK(whole[i * d + i] == doctest::Approx(1.0).epsilon(1e-12));
        // The tangent space at the identity is the log-Euclidean map, bit for bit; at the matrix itself, zero.
        float identity[d * d] = {};
        for (int i = 0; i < d; ++i) identity[i * d + i] = 1.f;
        double c2[d * d], v2[kCovDims];
        std::copy(original.begin(), original.end(), c2);
        cov_log_vector(kCovTangent, identity, c2, v2);
        for (int k = 0; k < kCovDims; ++k) CHECK(v2[k] == v[k]);
        float isqrt[d * d];  // original^-1/2 = Q' diag(1/sqrt(l)) Q'^T
        std::vector<double> w2 = original, lambda(d), vec(d * d);
        jacobi_eigen<d>(w2.data(), lambda.data(), vec.data());
        for (int i = 0; i < d; ++i)
            for (int j = 0; j < d; ++j) {
                long double s = 0;
                for (int k = 0; k < d; ++k) s += vec[i * d + k] / std::sqrt(static_cast<long double>(lambda[k])) * vec[j * d + k];
                isqrt[i * d + j] = static_cast<float>(s);
            }
        for (int i = 0; i < d; ++i)
            for (int j = 0; j < i; ++j) isqrt[i * d + j] = isqrt[j * d + i];
        std::copy(original.begin(), original.end(), c2);
        cov_log_vector(kCovTangent, isqrt, c2, v2);
        for (int k = 0; k < kCovDims; ++k) CHECK(std::fabs(v2[k]) < 1e-5);  // a float mean: not exactly the inverse
    }
}

namespace {

// An LBP-histogram learner's dot product from the pixels: each pixel's code and uniform bin found here (the
// bit order and clamping of lbp_pixel_code; the uniform codes by counting transitions), then weights . sqrt(count
// / area) in long double.
long double lbp_learner_dot_by_hand(const GrayView& image, int wx, int wy, const CovWeak& w) {
    std::vector<int> bin_of(256, -1);
    int next = 0;
    for (int code = 0; code < 256; ++code) {
        int transitions = 0;
        for (int b = 0; b < 8; ++b) transitions += ((code >> b) & 1) != ((code >> ((b + 1) % 8)) & 1);
        bin_of[static_cast<std::size_t>(code)] = transitions <= 2 ? next++ : kLbpUniformBins - 1;
    }
    const auto pixel = [&](int x, int y) {
        return image.at(std::clamp(x, 0, image.width - 1), std::clamp(y, 0, image.height - 1));
    };
    std::vector<int> counts(kLbpUniformBins, 0);
    const int around[8][2] = {{-1, -1}, {0, -1}, {1, -1}, {1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}};
    for (int y = wy + w.rect.y; y < wy + w.rect.y + w.rect.height; ++y)
        for (int x = wx + w.rect.x; x < wx + w.rect.x + w.rect.width; ++x) {
            int code = 0;
            for (const auto& o : around) code = code << 1 | (pixel(x + o[0], y + o[1]) >= pixel(x, y) ? 1 : 0);
            ++counts[static_cast<std::size_t>(bin_of[static_cast<std::size_t>(code)])];
        }
    long double dot = 0;
    const long double area = w.rect.width * w.rect.height;
    for (int k = 0; k < lbp_learner_bins(w.first_bin); ++k)
        dot += w.weights[k] * std::sqrt(counts[static_cast<std::size_t>(w.first_bin + k)] / area);
    return dot;
}

}  // namespace

TEST_CASE("CovWindow: each weak learner's response composed step by step, clipping, bins and LBP cells included") {
    for (const cv::Mat& gray : some_images()) {
        const GrayView image = view_of_mat(gray);
        const CovCascade cascade = test::random_cov_cascade(5, 2, 6, image);
        CovPlanes planes;
        compute_cov_planes(image, planes, true);
        const CovCascadeView view = view_of(cascade);
        const CovLbpGridView s = planes.lbp_sampler();
        for (int wy = 0; wy + 128 <= image.height; wy += 40)
            for (int wx = 0; wx + 64 <= image.width; wx += 48) {
                const CovWindow<CovLbpGridView> window(view, s, wx, wy);
                for (int i = 0; i < static_cast<int>(cascade.weaks.size()); ++i) {
                    const CovWeak& w = cascade.weaks[static_cast<std::size_t>(i)];
                    long double p = w.bias;
                    if (w.descriptor == kCovDescriptorLbpHistogram) {
                        p += lbp_learner_dot_by_hand(image, wx, wy, w);
                    } else {
                        double scale[d], c[d * d], v[kCovDims];
                        cov_window_scales(s, wx, wy, cascade.window, scale);
                        cov_rect_covariance(s, wx, wy, w.rect, scale, c);
                        cov_log_vector(w.mapping, w.mean_isqrt, c, v);
                        for (int k = 0; k < kCovDims; ++k) p += static_cast<long double>(w.weights[k]) * v[k];
                    }
                    double expected = 0;
                    if (w.num_cuts == 0) {
                        expected = std::clamp(static_cast<double>(p), -static_cast<double>(w.limit),
                                              static_cast<double>(w.limit));
                    } else {
                        int bin = 0;
                        for (int j = 0; j < w.num_cuts; ++j) bin += p >= w.cuts[j] ? 1 : 0;
                        expected = w.responses[bin];
                    }
                    // LBP cells: the detector's float arithmetic (lbp_histogram_dot) against long double
                    const double epsilon = w.descriptor == kCovDescriptorLbpHistogram ? 1e-5 : 1e-9;
                    CHECK(window(i) == doctest::Approx(expected).epsilon(epsilon));
                }
            }
    }
}
