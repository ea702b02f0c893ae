// Packed models (cascade-export's output): the binary and the compiled-in header give back the same model
// as the XML (LBP and HoG), detect the same windows, and corrupt or mismatched binaries are rejected with a
// clear error.
#include <doctest/doctest.h>

#include <cstring>
#include <iterator>
#include <type_traits>
#include <vector>
#include <opencv2/imgproc.hpp>

#include "common/error.hpp"
#include "common/lbp_cpu_detector.hpp"
#include "common/model_io.hpp"
#include "common/packed_model.hpp"
#include "tests/support/test_data.hpp"
#include CASCADE_EMBEDDED_TEST_MODEL
#include CASCADE_EMBEDDED_HOG_TEST_MODEL

namespace {

template <class T>
bool same_bytes(const std::vector<T>& a, const std::vector<T>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

// Window, sum policy, stages, weak-learner records (block or feature, weights, bias, vote) and response
// tables, bit for bit.
template <class Cascade>
void check_same(const Cascade& a, const Cascade& b) {
    CHECK(a.window == b.window);
    CHECK(a.policy == b.policy);
    CHECK(a.stages.size() == b.stages.size());
    CHECK(a.weaks.size() == b.weaks.size());
    CHECK(same_bytes(a.stages, b.stages));
    CHECK(same_bytes(a.weaks, b.weaks));
    if constexpr (std::is_same_v<Cascade, cascade::LbpCascade>) CHECK(same_bytes(a.responses, b.responses));
}

std::string error_of(const std::vector<std::uint8_t>& bytes) {
    try {
        cascade::unpack_model(bytes.data(), bytes.size(), "model.cpk");
    } catch (const cascade::InputError& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("packed OpenCV cascades unpack to the same model") {
    for (const std::string& path : cascade::test::opencv_lbp_cascades()) {
        INFO(path);
        const cascade::Model xml = cascade::load_model(path);
        const std::vector<std::uint8_t> packed = cascade::pack_model(xml);
        const cascade::Model back = cascade::unpack_model(packed.data(), packed.size(), "packed");
        check_same(std::get<cascade::LbpCascade>(xml.cascade), std::get<cascade::LbpCascade>(back.cascade));
    }
}

TEST_CASE("the compiled-in header detects exactly what the XML detects") {
    const auto xml_path = cascade::test::system_file(CASCADE_EMBEDDED_TEST_MODEL_XML);
    const auto images = cascade::test::real_images();
    if (!xml_path || images.empty()) return;
    const cascade::Model xml = cascade::load_model(*xml_path);
    const cascade::Model embedded =
        cascade::unpack_model(cascade::embedded::embedded_test_model, sizeof cascade::embedded::embedded_test_model,
                              "embedded:embedded_test_model");
    const auto& a = std::get<cascade::LbpCascade>(xml.cascade);
    const auto& b = std::get<cascade::LbpCascade>(embedded.cascade);
    check_same(a, b);
    std::size_t windows = 0;
    for (const auto& source : images) {
        const cv::Mat gray = cascade::test::load_gray(source);
        const cascade::GrayView view{gray.data, gray.cols, gray.rows, static_cast<int>(gray.step)};
        const auto from_xml = cascade::detect_windows(a, view, {});
        const auto from_header = cascade::detect_windows(b, view, {});
        REQUIRE(from_xml.size() == from_header.size());
        for (std::size_t i = 0; i < from_xml.size(); ++i) {
            CHECK(from_xml[i].rect == from_header[i].rect);
            CHECK(from_xml[i].score == from_header[i].score);
        }
        windows += from_xml.size();
    }
    CHECK(windows > 0);
}

TEST_CASE("corrupt, truncated and mismatched packed models are rejected") {
    const auto xml_path = cascade::test::system_file(CASCADE_EMBEDDED_TEST_MODEL_XML);
    if (!xml_path) return;
    const std::vector<std::uint8_t> good = cascade::pack_model(cascade::load_model(*xml_path));
    REQUIRE(error_of(good).empty());

    auto flipped = good;
    flipped[flipped.size() / 2] ^= 0x10;
    CHECK(error_of(flipped) == "model.cpk: checksum mismatch: the packed model is corrupt");

    auto truncated = good;
    truncated.resize(good.size() - 4);
    CHECK(error_of(truncated).find("truncated") != std::string::npos);

    auto future = good;
    const std::uint32_t version = cascade::kPackedVersion + 1;
    std::memcpy(future.data() + offsetof(cascade::PackedHeader, version), &version, sizeof version);
    CHECK(error_of(future).find("packed format version " + std::to_string(version)) != std::string::npos);

    auto not_packed = good;
    not_packed[0] = 'X';
    CHECK(error_of(not_packed).find("not a packed cascade model") != std::string::npos);

    CHECK(error_of({}).find("not a packed cascade model") != std::string::npos);
}

TEST_CASE("the HoG pedestrian model: packed binary and compiled-in header equal the XML, corruption is refused") {
    const cascade::Model xml = cascade::load_model(CASCADE_EMBEDDED_HOG_TEST_MODEL_XML);
    const auto& hog = std::get<cascade::HogCascade>(xml.cascade);
    REQUIRE(hog.weaks.size() > 0);
    const std::vector<std::uint8_t> packed = cascade::pack_model(xml);
    CHECK(packed.size() == sizeof(cascade::PackedHeader) + hog.stages.size() * sizeof(cascade::Stage) +
                               hog.weaks.size() * sizeof(cascade::HogWeak));
    const cascade::Model back = cascade::unpack_model(packed.data(), packed.size(), "packed");
    check_same(hog, std::get<cascade::HogCascade>(back.cascade));

    const auto& embedded = cascade::embedded::embedded_hog_test_model;
    CHECK(std::vector<std::uint8_t>(std::begin(embedded), std::end(embedded)) == packed);
    const cascade::Model compiled_in = cascade::unpack_model(embedded, sizeof embedded, "embedded");
    check_same(hog, std::get<cascade::HogCascade>(compiled_in.cascade));

    auto flipped = packed;  // one bit of a weak learner's weights
    flipped[sizeof(cascade::PackedHeader) + hog.stages.size() * sizeof(cascade::Stage) +
            offsetof(cascade::HogWeak, weights)] ^= 0x01;
    CHECK(error_of(flipped) == "model.cpk: checksum mismatch: the packed model is corrupt");

    auto short_one_weak = packed;
    short_one_weak.resize(packed.size() - sizeof(cascade::HogWeak));
    CHECK(error_of(short_one_weak).find("truncated") != std::string::npos);

    auto as_lbp = packed;  // the kind field says LBP: the sizes no longer add up
    const std::uint32_t lbp = 0;
    std::memcpy(as_lbp.data() + offsetof(cascade::PackedHeader, kind), &lbp, sizeof lbp);
    CHECK(error_of(as_lbp).find("truncated or padded") != std::string::npos);
}
