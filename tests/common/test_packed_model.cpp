// Packed models (cascade-export's output): the binary and the compiled-in header give back the same model and
// kernel tables as the XML (LBP and HoG), detect the same windows, and corrupt, mismatched or self-contradicting
// binaries are refused with a clear error.
#include <doctest/doctest.h>

#include <cstring>
#include <iterator>
#include <type_traits>
#include <vector>
#include <opencv2/imgproc.hpp>

#include "common/error.hpp"
#include "common/lbp_cpu_detector.hpp"
#include "common/lbp_tables.hpp"
#include "common/model_io.hpp"
#include "common/packed_model.hpp"
#include "tests/support/test_data.hpp"
#include CASCADE_EMBEDDED_TEST_MODEL
#include CASCADE_EMBEDDED_HOG_TEST_MODEL

namespace {

using cascade::PackedHeader;
using cascade::PackedModel;

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

// The file's last 8 bytes: the FNV-1a checksum of every byte before them, recomputed after an edit (what a
// careless or malicious writer would do).
void reseal(std::vector<std::uint8_t>& bytes) {
    const std::uint64_t hash = cascade::packed_checksum(bytes.data(), bytes.size() - 8);
    for (int k = 0; k < 8; ++k) bytes[bytes.size() - 8 + k] = static_cast<std::uint8_t>(hash >> (8 * k));
}

template <class T>
void set_field(std::vector<std::uint8_t>& bytes, std::size_t offset, T value) {
    std::memcpy(bytes.data() + offset, &value, sizeof value);
}

PackedModel packed_frontal_face() {
    const auto xml = cascade::test::system_file(CASCADE_EMBEDDED_TEST_MODEL_XML);
    REQUIRE(xml);
    return cascade::compile_model(cascade::load_model(*xml));
}

}  // namespace

TEST_CASE("packed OpenCV cascades unpack to the same model and stump tables") {
    for (const std::string& path : cascade::test::opencv_lbp_cascades()) {
        INFO(path);
        const PackedModel compiled = cascade::compile_model(cascade::load_model(path));
        const auto& lbp = std::get<cascade::LbpCascade>(compiled.model.cascade);
        CHECK(same_bytes(compiled.stumps, cascade::stump_tables(lbp)));
        REQUIRE(compiled.stumps.size() == lbp.weaks.size() * cascade::kStumpWords);
        const std::vector<std::uint8_t> packed = cascade::pack_model(compiled);
        const PackedModel back = cascade::unpack_model(packed.data(), packed.size(), "packed");
        check_same(lbp, std::get<cascade::LbpCascade>(back.model.cascade));
        CHECK(same_bytes(back.stumps, compiled.stumps));
        CHECK(back.model.source == "packed");
    }
}

TEST_CASE("a WaldBoost model packs without stump tables and loads the same") {
    // (models/pedestrian_lbp_64x128.xml ends in a histogram SVM, which the packed format refuses.)
    const std::string path = std::string(CASCADE_SOURCE_DIR) + "/models/pedestrian_lbp_accept_64x128.xml";
    const PackedModel compiled = cascade::load_packed_model(path);
    CHECK(compiled.stumps.empty());
    const std::vector<std::uint8_t> packed = cascade::pack_model(compiled);
    const PackedModel back = cascade::unpack_model(packed.data(), packed.size(), "packed");
    check_same(std::get<cascade::LbpCascade>(compiled.model.cascade),
               std::get<cascade::LbpCascade>(back.model.cascade));
    CHECK(back.stumps.empty());
}

TEST_CASE("the compiled-in header detects exactly what the XML detects, with the XML's stump tables") {
    const auto xml_path = cascade::test::system_file(CASCADE_EMBEDDED_TEST_MODEL_XML);
    const auto images = cascade::test::real_images();
    if (!xml_path || images.empty()) return;
    const PackedModel xml = cascade::compile_model(cascade::load_model(*xml_path));
    const PackedModel embedded =
        cascade::unpack_model(cascade::embedded::embedded_test_model, sizeof cascade::embedded::embedded_test_model,
                              "embedded:embedded_test_model");
    const auto& a = std::get<cascade::LbpCascade>(xml.model.cascade);
    const auto& b = std::get<cascade::LbpCascade>(embedded.model.cascade);
    check_same(a, b);
    CHECK(same_bytes(xml.stumps, embedded.stumps));
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

TEST_CASE("corrupt, truncated and mismatched packed models are refused") {
    const std::vector<std::uint8_t> good = cascade::pack_model(packed_frontal_face());
    REQUIRE(error_of(good).empty());

    auto flipped = good;
    flipped[flipped.size() / 2] ^= 0x10;
    CHECK(error_of(flipped) == "model.cpk: checksum mismatch: the packed model is corrupt");

    auto truncated = good;
    truncated.resize(good.size() - 4);
    CHECK(error_of(truncated) == "model.cpk: checksum mismatch: the packed model is corrupt");

    auto future = good;
    set_field(future, offsetof(PackedHeader, version), cascade::kPackedVersion + 1);
    CHECK(error_of(future).find("packed format version " + std::to_string(cascade::kPackedVersion + 1)) !=
          std::string::npos);

    auto not_packed = good;
    not_packed[0] = 'X';
    CHECK(error_of(not_packed).find("not a packed cascade model") != std::string::npos);

    CHECK(error_of({}).find("not a packed cascade model") != std::string::npos);
}

TEST_CASE("every byte of the header is under the checksum: a flipped window, policy or count byte is refused") {
    const std::vector<std::uint8_t> good = cascade::pack_model(packed_frontal_face());
    for (std::size_t offset : {offsetof(PackedHeader, kind), offsetof(PackedHeader, policy),
                               offsetof(PackedHeader, window_width), offsetof(PackedHeader, window_height),
                               offsetof(PackedHeader, num_stages), offsetof(PackedHeader, num_stump_words)}) {
        auto flipped = good;
        flipped[offset] ^= 0x01;
        INFO("header byte " << offset);
        CHECK(error_of(flipped) == "model.cpk: checksum mismatch: the packed model is corrupt");
    }
}

TEST_CASE("a valid checksum over content that contradicts itself is refused") {
    const PackedModel face = packed_frontal_face();
    const auto& lbp = std::get<cascade::LbpCascade>(face.model.cascade);
    const std::vector<std::uint8_t> good = cascade::pack_model(face);

    auto small_window = good;  // the features no longer fit the window
    set_field(small_window, offsetof(PackedHeader, window_width), 8);
    reseal(small_window);
    CHECK(error_of(small_window).find("model.cpk: ") == 0);
    CHECK(error_of(small_window).find("checksum") == std::string::npos);

    auto policy = good;  // an unknown sum policy
    set_field(policy, offsetof(PackedHeader, policy), std::uint32_t{7});
    reseal(policy);
    CHECK(error_of(policy) == "model.cpk: unknown sum policy 7");

    auto stages = good;  // one stage fewer: the sizes no longer add up
    set_field(stages, offsetof(PackedHeader, num_stages), static_cast<std::uint32_t>(lbp.stages.size() - 1));
    reseal(stages);
    CHECK(error_of(stages).find("truncated or padded") != std::string::npos);

    auto stumps = good;  // a stump that gives code 0 the other leaf than its response table
    const std::size_t first_stump = good.size() - 8 - face.stumps.size() * sizeof(std::uint32_t);
    stumps[first_stump] ^= 0x01;
    reseal(stumps);
    CHECK(error_of(stumps) == "model.cpk: the stump tables disagree with the response tables");

    PackedModel odd_stumps = face;  // stump words that are not kStumpWords per weak learner
    odd_stumps.stumps.pop_back();
    CHECK(error_of(cascade::pack_model(odd_stumps)).find("stump table words") != std::string::npos);
}

TEST_CASE("the HoG pedestrian model: packed binary and compiled-in header equal the XML, corruption is refused") {
    const cascade::Model xml = cascade::load_model(CASCADE_EMBEDDED_HOG_TEST_MODEL_XML);
    const auto& hog = std::get<cascade::HogCascade>(xml.cascade);
    REQUIRE(hog.weaks.size() > 0);
    const PackedModel compiled = cascade::compile_model(xml);
    CHECK(compiled.stumps.empty());
    const std::vector<std::uint8_t> packed = cascade::pack_model(compiled);
    CHECK(packed.size() == sizeof(PackedHeader) + hog.stages.size() * sizeof(cascade::Stage) +
                               hog.weaks.size() * sizeof(cascade::HogWeak) + sizeof(std::uint64_t));
    const PackedModel back = cascade::unpack_model(packed.data(), packed.size(), "packed");
    check_same(hog, std::get<cascade::HogCascade>(back.model.cascade));

    const auto& embedded = cascade::embedded::embedded_hog_test_model;
    CHECK(std::vector<std::uint8_t>(std::begin(embedded), std::end(embedded)) == packed);
    const PackedModel compiled_in = cascade::unpack_model(embedded, sizeof embedded, "embedded");
    check_same(hog, std::get<cascade::HogCascade>(compiled_in.model.cascade));

    auto flipped = packed;  // one bit of a weak learner's weights
    flipped[sizeof(PackedHeader) + hog.stages.size() * sizeof(cascade::Stage) + offsetof(cascade::HogWeak, weights)] ^=
        0x01;
    CHECK(error_of(flipped) == "model.cpk: checksum mismatch: the packed model is corrupt");

    auto as_lbp = packed;  // the kind field says LBP, checksum resealed: the sizes no longer add up
    set_field(as_lbp, offsetof(PackedHeader, kind), std::uint32_t{0});
    reseal(as_lbp);
    CHECK(error_of(as_lbp).find("truncated or padded") != std::string::npos);

    auto with_tables = packed;  // a HoG model that claims LBP response tables
    set_field(with_tables, offsetof(PackedHeader, num_responses), std::uint32_t{256});
    reseal(with_tables);
    CHECK(error_of(with_tables) == "model.cpk: a HoG model with LBP response or stump tables");
}
