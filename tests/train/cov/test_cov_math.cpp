// The covariance trainer's mathematics on normalised covariances of real INRIA windows (rectangles of person
// crops and of person-free photographs, through the family's planes: train/cov/cov_samples.hpp): log and exp
// inverse to each other, the tangent vector's norm (common/cov_eval.hpp's mapping at a stored mean) equal to
// the affine-invariant (Foerstner) distance of common/spd_distance.hpp, the Karcher mean's defining properties
// (zero mean tangent step, the geodesic midpoint of two matrices, invariance under congruence), the weighted
// least squares against cv::solve, and LogitBoost rounds on tangent vectors that lower the logistic loss.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <optional>
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

#include "common/cov_eval.hpp"
#include "tests/support/test_data.hpp"
#include "train/cov/cov_samples.hpp"
#include "train/cov/logitboost.hpp"
#include "train/cov/riemannian_mean.hpp"
#include "train/cov/spd_functions.hpp"

namespace {

using namespace cascade;
using namespace cascade::train::cov;
namespace fs = std::filesystem;
constexpr int kD = kCovFeatures;
constexpr int kDD = kD * kD;

// 72x136 crops (a 64x128 window and its margin) of `count` images of `folder`: the centre of INRIA's 96x160
// person crops, the top left of the negative photographs.
void add_crops(const std::string& folder, int count, CovSamples& samples) {
    std::vector<std::string> files;
    for (const auto& e : fs::directory_iterator(folder)) files.push_back(e.path().string());
    std::sort(files.begin(), files.end());
    for (int f = 0; f < count && f < static_cast<int>(files.size()); ++f) {
        const cv::Mat grey = cv::imread(files[static_cast<std::size_t>(f) * 7 % files.size()], cv::IMREAD_GRAYSCALE);
        const int x0 = grey.cols == 96 ? 12 : 40, y0 = grey.rows == 160 ? 12 : 40;
        GrayImage crop(72, 136);
        for (int y = 0; y < crop.height; ++y) std::copy_n(grey.ptr<uchar>(y0 + y) + x0, crop.width, crop.row(y));
        samples.crops.push_back(std::move(crop));
    }
}

struct Data {
    CovSamples samples;
    std::vector<double> positives, negatives;  // covariances of kRects rectangles per sample
};

const std::vector<Rect> kRects = {{8, 8, 24, 32}, {32, 64, 32, 48}, {0, 0, 64, 128}, {20, 40, 16, 16}};

std::optional<Data> load() {
    const auto shared = test::shared_data_dir();
    if (!shared) return std::nullopt;
    const std::string pos = *shared + "/inria/96X160H96/Train/pos", neg = *shared + "/inria/Train/neg";
    if (!fs::is_directory(pos) || !fs::is_directory(neg)) {
        MESSAGE("SKIP: INRIA crops or negatives are missing under " << *shared);
        return std::nullopt;
    }
    Data d;
    add_crops(pos, 60, d.samples);
    d.samples.positives = d.samples.size();
    add_crops(neg, 60, d.samples);
    std::vector<int> pos_index, neg_index;
    for (int i = 0; i < d.samples.size(); ++i) (d.samples.positive(i) ? pos_index : neg_index).push_back(i);
    d.positives = rect_covariances(d.samples, pos_index, kRects, 2);
    d.negatives = rect_covariances(d.samples, neg_index, kRects, 2);
    return d;
}

double max_difference(const double* a, const double* b, int n) {
    double m = 0;
    for (int i = 0; i < n; ++i) m = std::max(m, std::fabs(a[i] - b[i]) / (1 + std::fabs(b[i])));
    return m;
}

// mu^-1/2 as a weak learner stores it (float).
CovWeak tangent_map(const std::vector<double>& mu) {
    CovWeak map;
    map.mapping = kCovTangent;
    const std::vector<double> m = inverse_sqrt(mu, kD);
    std::copy(m.begin(), m.end(), map.mean_isqrt);
    return map;
}

std::vector<double> tangent(const CovWeak& map, const double* c) {
    double copy[kDD], v[kCovDims];
    std::copy(c, c + kDD, copy);
    cov_log_vector(map.mapping, map.mean_isqrt, copy, v);
    return std::vector<double>(v, v + kCovDims);
}

}  // namespace

TEST_CASE("log, exp and square roots of real covariances") {
    const auto data = load();
    if (!data) return;
    for (std::size_t i = 0; i < data->positives.size(); i += kDD * 13) {
        const double* c = &data->positives[i];
        double log_c[kDD], back[kDD], half[kDD], square[kDD];
        spd_log<kD>(c, log_c);
        spd_exp<kD>(log_c, back);
        CHECK(max_difference(back, c, kDD) < 1e-9);
        spd_power<kD>(c, 0.5, half);
        spd_product<kD>(half, half, square);
        CHECK(max_difference(square, c, kDD) < 1e-9);
    }
}

TEST_CASE("Karcher mean of real covariances -- tangent vectors at it") {
    const auto data = load();
    if (!data) return;
    const std::size_t n = data->samples.positives;  // the first rectangle's covariances
    const std::vector<double> points(data->positives.begin(), data->positives.begin() + static_cast<std::ptrdiff_t>(n * kDD));
    std::vector<double> weights(n);
    for (std::size_t i = 0; i < n; ++i) weights[i] = 0.5 + static_cast<double>(i % 5);
    std::vector<double> mu;
    const MeanReport report = karcher_mean(points, weights, kD, mu);
    INFO("iterations " << report.iterations << ", last step " << report.last_step);
    CHECK(report.last_step < 1e-9);

    // The norm of a tangent vector is the affine-invariant distance to the mean (up to the float mean_isqrt).
    const CovWeak map = tangent_map(mu);
    std::vector<double> mean(kCovDims, 0.0);
    double total = 0, spread = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const std::vector<double> v = tangent(map, &points[i * kDD]);
        double norm = 0;
        for (int k = 0; k < kCovDims; ++k) {
            norm += v[static_cast<std::size_t>(k)] * v[static_cast<std::size_t>(k)];
            mean[static_cast<std::size_t>(k)] += weights[i] * v[static_cast<std::size_t>(k)];
        }
        CHECK(std::sqrt(norm) == doctest::Approx(forstner_distance<kD>(&points[i * kDD], mu.data())).epsilon(1e-5));
        total += weights[i];
        spread += weights[i] * std::sqrt(norm);
    }
    // At the mean, the weighted mean of the tangent vectors vanishes (the Frechet function's gradient).
    for (double m : mean) CHECK(std::fabs(m / total) < 1e-5 * (spread / total));

    SUBCASE("two matrices: the geodesic midpoint A^1/2 (A^-1/2 B A^-1/2)^1/2 A^1/2") {
        const std::vector<double> two(points.begin(), points.begin() + 2 * kDD);
        std::vector<double> mid;
        karcher_mean(two, {1.0, 1.0}, kD, mid);
        double root[kDD], inv[kDD], inner[kDD], inner_root[kDD], expected[kDD];
        spd_power<kD>(&two[0], 0.5, root);
        spd_power<kD>(&two[0], -0.5, inv);
        spd_congruence<kD>(inv, &two[kDD], inner);
        spd_power<kD>(inner, 0.5, inner_root);
        spd_congruence<kD>(root, inner_root, expected);
        CHECK(max_difference(mid.data(), expected, kDD) < 1e-8);
    }
    SUBCASE("congruence: the mean of G X G is G mu G") {
        const double* g = &data->negatives[0];  // an SPD matrix: an invertible G
        std::vector<double> moved(points.size());
        for (std::size_t i = 0; i < n; ++i) spd_congruence<kD>(g, &points[i * kDD], &moved[i * kDD]);
        std::vector<double> moved_mu;
        karcher_mean(moved, weights, kD, moved_mu);
        double expected[kDD];
        spd_congruence<kD>(g, mu.data(), expected);
        CHECK(max_difference(moved_mu.data(), expected, kDD) < 1e-7);
    }
}

TEST_CASE("weighted least squares against cv::solve") {
    const auto data = load();
    if (!data) return;
    const std::size_t n = data->positives.size() / kDD;
    const CovWeak identity;  // log-Euclidean
    std::vector<float> x;
    std::vector<double> z(n), w(n);
    for (std::size_t i = 0; i < n; ++i) {
        const std::vector<double> v = tangent(identity, &data->positives[i * kDD]);
        x.insert(x.end(), v.begin(), v.end());
        z[i] = std::sin(static_cast<double>(i)) + v[3];
        w[i] = 1.0 + static_cast<double>(i % 3);
    }
    double residual = 0;
    weighted_least_squares(x, kCovDims, z, w, 0.0, residual);
    cv::Mat a(static_cast<int>(n), kCovDims + 1, CV_64F), b(static_cast<int>(n), 1, CV_64F), solution;
    for (std::size_t i = 0; i < n; ++i) {
        const double s = std::sqrt(w[i]);
        for (int j = 0; j < kCovDims; ++j) a.at<double>(static_cast<int>(i), j) = s * x[i * kCovDims + j];
        a.at<double>(static_cast<int>(i), kCovDims) = s;
        b.at<double>(static_cast<int>(i)) = s * z[i];
    }
    cv::solve(a, b, solution, cv::DECOMP_SVD);
    const cv::Mat r = a * solution - b;
    CHECK(residual == doctest::Approx(r.dot(r)).epsilon(1e-6));
}

TEST_CASE("LogitBoost rounds on tangent vectors lower the logistic loss") {
    const auto data = load();
    if (!data) return;
    const std::size_t num_pos = data->samples.positives, n = data->samples.size();
    std::vector<double> all(data->positives.begin(), data->positives.begin() + static_cast<std::ptrdiff_t>(num_pos * kDD));
    all.insert(all.end(), data->negatives.begin(), data->negatives.begin() + static_cast<std::ptrdiff_t>((n - num_pos) * kDD));
    std::vector<int> labels(n, -1);
    std::fill(labels.begin(), labels.begin() + static_cast<std::ptrdiff_t>(num_pos), 1);
    std::vector<double> sums(n, 0.0);
    auto loss = [&] {
        double l = 0;
        for (std::size_t i = 0; i < n; ++i) l += std::log1p(std::exp(-2.0 * labels[i] * sums[i]));
        return l / static_cast<double>(n);
    };
    double previous = loss();
    for (int round = 0; round < 4; ++round) {
        const WorkingSet ws = working_set(sums, labels);
        std::vector<double> mu;
        karcher_mean(all, ws.w, kD, mu);
        const CovWeak map = tangent_map(mu);
        std::vector<float> x;
        for (std::size_t i = 0; i < n; ++i) {
            const std::vector<double> v = tangent(map, &all[i * kDD]);
            x.insert(x.end(), v.begin(), v.end());
        }
        double residual = 0;
        const std::vector<double> g = weighted_least_squares(x, kCovDims, ws.z, ws.w, 1e-6, residual);
        for (std::size_t i = 0; i < n; ++i) {
            double value = g[kCovDims];
            for (int j = 0; j < kCovDims; ++j) value += g[static_cast<std::size_t>(j)] * x[i * kCovDims + j];
            sums[i] += value / 2;
        }
        const double now = loss();
        INFO("round " << round << ": loss " << previous << " -> " << now);
        CHECK(now < previous);
        previous = now;
    }
    CHECK(previous < 0.5 * std::log(2.0));  // well below chance (ln 2) on these windows
}
