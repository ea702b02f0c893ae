// opencv_createsamples .vec files as positives (data/vec_file.hpp): samples read back exactly, mirrored and
// jittered as crops are; truncated, malformed and wrongly sized files refused in one line naming the file;
// and the rotation of the positives' jitter.
#include <doctest/doctest.h>

#include <cstdint>
#include <fstream>
#include <opencv2/core.hpp>

#include "common/error.hpp"
#include "data/positive_samples.hpp"
#include "data/vec_file.hpp"
#include "tests/support/scratch_files.hpp"

using namespace cascade;

namespace {

void put16(std::ofstream& out, int v) {
    out.put(static_cast<char>(v & 0xff));
    out.put(static_cast<char>((v >> 8) & 0xff));
}

void put32(std::ofstream& out, int v) {
    put16(out, v & 0xffff);
    put16(out, (v >> 16) & 0xffff);
}

// A .vec as opencv_createsamples writes it: `count` samples of width x height, pixel value 10 * sample + i;
// `cut` bytes left off the end, `extra` zero bytes added.
void write_vec(const std::string& path, int count, int width, int height, int cut = 0, int extra = 0,
               int bad_value = -1) {
    std::string bytes;
    {
        std::ofstream out(path, std::ios::binary);
        put32(out, count);
        put32(out, width * height);
        put16(out, 0);
        put16(out, 0);
        for (int s = 0; s < count; ++s) {
            out.put(0);
            for (int i = 0; i < width * height; ++i) put16(out, bad_value >= 0 && s == 1 && i == 2 ? bad_value : 10 * s + i);
        }
        for (int i = 0; i < extra; ++i) out.put(0);
    }
    if (cut > 0) std::filesystem::resize_file(path, std::filesystem::file_size(path) - static_cast<unsigned>(cut));
}

}  // namespace

TEST_CASE(".vec samples read back as opencv_createsamples wrote them, mirrored and jittered as crops") {
    test::ScratchDir dir("vec");
    const std::string path = dir.file("faces.vec");
    write_vec(path, 3, 4, 3);
    CHECK(data::vec_sample_count(path) == 3);
    const GrayImage second = data::read_vec_sample(path, 1, {4, 3});
    for (int i = 0; i < 12; ++i) CHECK(second.pixels[static_cast<std::size_t>(i)] == 10 + i);

    const std::vector<data::PositiveSource> sources = data::find_positives(path);
    REQUIRE(sources.size() == 3);
    CHECK(sources[2].vec_sample == 2);
    CHECK(sources[0].group != sources[1].group);  // each sample its own group: the file keeps no provenance
    data::CropParams crop{{4, 3}, std::nullopt, 0.0, true, {}};
    crop.jitter.copies = 1;
    crop.jitter.shift = 1.0;
    const std::vector<data::PositiveSample> samples = data::load_positives(sources, crop, 1);
    REQUIRE(samples.size() == 3 * 2 * 2);  // sample, its mirror, jittered copy, its mirror
    CHECK(samples[4].window.pixels == second.pixels);
    CHECK(samples[5].window.pixels[0] == second.pixels[3]);  // mirrored: row 0 reversed
}

TEST_CASE(".vec files that are truncated, malformed or of another window size: one line naming the file") {
    test::ScratchDir dir("vec-bad");
    const auto message = [&](const std::string& name, auto&& f) {
        const std::string m = test::input_error(f);
        CHECK_MESSAGE(m.find(dir.file(name)) != std::string::npos, m);
        CHECK(m.find('\n') == std::string::npos);
        return m;
    };
    write_vec(dir.file("cut.vec"), 3, 4, 3, 5);
    CHECK(message("cut.vec", [&] { data::find_positives(dir.file("cut.vec")); }).find("truncated") != std::string::npos);
    write_vec(dir.file("extra.vec"), 3, 4, 3, 0, 7);
    CHECK(message("extra.vec", [&] { data::vec_sample_count(dir.file("extra.vec")); }).find("7 bytes past") !=
          std::string::npos);
    write_vec(dir.file("empty.vec"), 0, 4, 3);
    CHECK(message("empty.vec", [&] { data::vec_sample_count(dir.file("empty.vec")); }).find("0 samples") !=
          std::string::npos);
    std::ofstream(dir.file("short.vec")) << "abc";
    CHECK(message("short.vec", [&] { data::vec_sample_count(dir.file("short.vec")); }).find("header") !=
          std::string::npos);
    write_vec(dir.file("wrong.vec"), 2, 4, 3);
    const std::vector<data::PositiveSource> sources = data::find_positives(dir.file("wrong.vec"));
    const data::CropParams crop{{24, 24}, std::nullopt, 0.0, false, {}};
    CHECK(message("wrong.vec", [&] { data::load_positives(sources, crop, 1); }).find("12 pixels, not the 24x24") !=
          std::string::npos);
    write_vec(dir.file("value.vec"), 2, 4, 3, 0, 0, 300);
    CHECK(message("value.vec", [&] { data::read_vec_sample(dir.file("value.vec"), 1, {4, 3}); }).find("300") !=
          std::string::npos);
}

TEST_CASE("jitter rotation: angles within the bound, a half turn is the image upside down") {
    data::Jitter jitter;
    jitter.rotation = 5.0;
    bool turned = false;
    for (int s = 0; s < 50; ++s) {
        const data::JitterDraw d = data::draw_jitter(jitter, s, 0);
        CHECK(std::abs(d.angle) <= 5.0);
        turned = turned || std::abs(d.angle) > 1.0;
    }
    CHECK(turned);
    jitter.rotation = 0.0;
    CHECK(data::draw_jitter(jitter, 3, 0).angle == 0.0);

    GrayImage image(5, 3);
    for (std::size_t i = 0; i < image.pixels.size(); ++i) image.pixels[i] = static_cast<std::uint8_t>(i * 7);
    data::JitterDraw half;
    half.angle = 180.0;
    GrayImage out = data::jittered(image, half, 1.0);
    for (int y = 0; y < 3; ++y)
        for (int x = 0; x < 5; ++x) CHECK(out.row(y)[x] == image.row(2 - y)[4 - x]);
    CHECK_THROWS_AS(data::check_jitter({0, 4.0, 1.1, 1, 46.0}), InputError);
}
