// Tests of the positives' jitter (data/positive_samples.hpp): the draws' ranges and determinism, and where the
// person lands in each jittered copy, measured on a crop whose "person" is a bright bar in the centre.
#include <doctest/doctest.h>

#include <cmath>
#include <opencv2/imgcodecs.hpp>

#include "data/positive_samples.hpp"
#include "tests/support/scratch_files.hpp"

using namespace cascade;
using namespace cascade::data;
using cascade::test::input_error;
using cascade::test::ScratchDir;

namespace {

// The centroid and area of the bright pixels, weighted by brightness.
struct Blob {
    double x = 0, y = 0, area = 0;
};

Blob blob(const GrayImage& image) {
    Blob b;
    for (int y = 0; y < image.height; ++y)
        for (int x = 0; x < image.width; ++x) {
            const double v = image.pixels[static_cast<std::size_t>(y * image.width + x)] / 255.0;
            b.area += v;
            b.x += v * x;
            b.y += v * y;
        }
    b.x /= b.area;
    b.y /= b.area;
    return b;
}

// A 96x160 crop, black but for a white 32x96 bar in its centre (the person in the 64x128 window).
// Returns the crop as the one positive source of dir.
std::vector<PositiveSource> write_bar_crop(const ScratchDir& dir) {
    cv::Mat crop(160, 96, CV_8UC1, cv::Scalar(0));
    crop(cv::Rect(32, 32, 32, 96)).setTo(255);
    cv::imwrite(dir.file("crop000001a.png"), crop);
    return find_positives(dir.path());
}

}  // namespace

TEST_CASE("jitter draws: within the asked shift and scale, spread over them, the same for the same seed") {
    const Jitter jitter{5, 4.0, 1.1, 7};
    double min_dx = 0, max_dx = 0, min_dy = 0, max_dy = 0, min_s = 1, max_s = 1;
    for (int i = 0; i < 200; ++i) {
        const JitterDraw d = draw_jitter(jitter, i / 5, i % 5);
        CHECK(std::abs(d.dx) <= 4.0);
        CHECK(std::abs(d.dy) <= 4.0);
        CHECK(d.scale >= 1 / 1.1);
        CHECK(d.scale <= 1.1);
        min_dx = std::min(min_dx, d.dx), max_dx = std::max(max_dx, d.dx);
        min_dy = std::min(min_dy, d.dy), max_dy = std::max(max_dy, d.dy);
        min_s = std::min(min_s, d.scale), max_s = std::max(max_s, d.scale);
    }
    CHECK(min_dx < -3.5);
    CHECK(max_dx > 3.5);
    CHECK(min_dy < -3.5);
    CHECK(max_dy > 3.5);
    CHECK(min_s < 0.92);
    CHECK(max_s > 1.08);
    const JitterDraw a = draw_jitter(jitter, 3, 2), b = draw_jitter(jitter, 3, 2);
    CHECK((a.dx == b.dx && a.dy == b.dy && a.scale == b.scale));
    const JitterDraw other = draw_jitter(Jitter{5, 4.0, 1.1, 8}, 3, 2);
    CHECK(other.dx != a.dx);
    const JitterDraw none = draw_jitter(Jitter{1, 0.0, 1.0, 7}, 3, 2);
    CHECK((none.dx == 0 && none.dy == 0 && none.scale == 1));
}

TEST_CASE("jittered crops and boxes: the window shows the person moved by -d/s and scaled by 1/s, mirror twins follow") {
    ScratchDir dir("jitter");
    const std::vector<PositiveSource> sources = write_bar_crop(dir);
    SUBCASE("window-sized centre of the crop") {
        CropParams params{{64, 128}, std::nullopt, 0.0, true, Jitter{6, 4.0, 1.1, 3}};
        const std::vector<PositiveSample> samples = load_positives(sources, params, 1);
        REQUIRE(samples.size() == 14);
        for (int k = 0; k < 7; ++k) {
            CAPTURE(k);
            const JitterDraw d = k == 0 ? JitterDraw{} : draw_jitter(params.jitter, 0, k - 1);
            const Blob b = blob(samples[static_cast<std::size_t>(2 * k)].window);
            CHECK(b.x == doctest::Approx(31.5 - d.dx / d.scale).epsilon(0.01));
            CHECK(b.y == doctest::Approx(63.5 - d.dy / d.scale).epsilon(0.005));
            CHECK(b.area == doctest::Approx(32 * 96 / (d.scale * d.scale)).epsilon(0.02));
            const Blob m = blob(samples[static_cast<std::size_t>(2 * k + 1)].window);
            CHECK(m.x == doctest::Approx(63 - b.x).epsilon(0.001));
            CHECK(m.y == doctest::Approx(b.y).epsilon(0.001));
            CHECK(samples[static_cast<std::size_t>(2 * k)].group == "crop000001");
        }
    }
    SUBCASE("crop minus a margin, resized: the shift is in window pixels") {
        CropParams params{{32, 64}, Margin{16, 16, 16, 16}, 0.0, false, Jitter{6, 3.0, 1.2, 5}};
        const std::vector<PositiveSample> samples = load_positives(sources, params, 1);
        REQUIRE(samples.size() == 7);
        for (int k = 1; k < 7; ++k) {
            CAPTURE(k);
            const JitterDraw d = draw_jitter(params.jitter, 0, k - 1);
            const Blob b = blob(samples[static_cast<std::size_t>(k)].window);
            CHECK(b.x == doctest::Approx(15.5 - d.dx / d.scale).epsilon(0.02));
            CHECK(b.y == doctest::Approx(31.5 - d.dy / d.scale).epsilon(0.01));
            CHECK(b.area == doctest::Approx(16 * 48 / (d.scale * d.scale)).epsilon(0.03));
        }
    }
    SUBCASE("annotated box: cut with context around it, then jittered as a crop with that margin") {
        const std::vector<PositiveSource> boxed{{sources[0].path, Rect{16, 16, 64, 128}, "photo"}};
        CropParams params{{32, 64}, std::nullopt, 0.0, false, Jitter{6, 3.0, 1.2, 5}};
        const std::vector<PositiveSample> samples = load_positives(boxed, params, 1);
        REQUIRE(samples.size() == 7);
        for (int k = 0; k < 7; ++k) {
            CAPTURE(k);
            const JitterDraw d = k == 0 ? JitterDraw{} : draw_jitter(params.jitter, 0, k - 1);
            const Blob b = blob(samples[static_cast<std::size_t>(k)].window);
            CHECK(b.x == doctest::Approx(15.5 - d.dx / d.scale).epsilon(0.02));
            CHECK(b.y == doctest::Approx(31.5 - d.dy / d.scale).epsilon(0.01));
            CHECK(b.area == doctest::Approx(16 * 48 / (d.scale * d.scale)).epsilon(0.03));
            CHECK(samples[static_cast<std::size_t>(k)].group == "photo");
        }
    }
}

TEST_CASE("jitter noise: each copy is the noise-free copy plus zero-mean noise of the asked deviation, seeded") {
    ScratchDir dir("jitter-noise");
    cv::Mat crop(160, 96, CV_8UC1, cv::Scalar(100));  // mid-grey, so that no noise is clamped away at 0 or 255
    crop(cv::Rect(32, 32, 32, 96)).setTo(160);
    cv::imwrite(dir.file("crop000001a.png"), crop);
    const std::vector<PositiveSource> sources = find_positives(dir.path());
    const auto load = [&](double noise) {
        const Jitter jitter{2, 2.0, 1.1, 3, 0.0, noise};
        return load_positives(sources, CropParams{{64, 128}, std::nullopt, 0.0, false, jitter}, 1);
    };
    const std::vector<PositiveSample> clean = load(0.0), noisy = load(10.0), again = load(10.0);
    REQUIRE(noisy.size() == 3);
    CHECK(noisy[0].window.pixels == clean[0].window.pixels);  // the unjittered sample is left as it is
    for (std::size_t k = 1; k < 3; ++k) {
        CAPTURE(k);
        double sum = 0, squares = 0;
        const std::vector<std::uint8_t>& a = noisy[k].window.pixels;
        const std::vector<std::uint8_t>& b = clean[k].window.pixels;
        for (std::size_t i = 0; i < a.size(); ++i) {
            const double d = static_cast<double>(a[i]) - b[i];
            sum += d;
            squares += d * d;
        }
        const double n = static_cast<double>(a.size()), mean = sum / n;
        CHECK(std::abs(mean) < 0.5);
        CHECK(std::sqrt(squares / n - mean * mean) == doctest::Approx(10.0).epsilon(0.05));
        CHECK(again[k].window.pixels == a);
        CHECK(noisy[1].window.pixels != noisy[2].window.pixels);
    }
}

TEST_CASE("jitter: bad settings are refused with a one-line error") {
    ScratchDir dir("jitter-bad");
    const std::vector<PositiveSource> sources = write_bar_crop(dir);
    const auto refusal = [&](const std::vector<PositiveSource>& from, const Jitter& jitter) {
        return input_error([&] { load_positives(from, CropParams{{64, 128}, std::nullopt, 0.0, false, jitter}, 1); });
    };
    CHECK(refusal(sources, Jitter{-1, 4.0, 1.1, 1}) == "--jitter: must be 0 or more copies");
    CHECK(refusal(sources, Jitter{2, -1.0, 1.1, 1}) == "--jitter-shift: must be 0 or more pixels");
    CHECK(refusal(sources, Jitter{2, 4.0, 0.9, 1}) == "--jitter-scale: must be at least 1");
    CHECK(refusal(sources, Jitter{2, 4.0, 1.1, 1, 0.0, 65.0}) == "--jitter-noise: must lie in [0, 64] grey levels");
    CHECK(refusal(sources, Jitter{2, 4.0, 1.1, 1, 0.0, -1.0}) == "--jitter-noise: must lie in [0, 64] grey levels");
}
