// Covariance models as files (the project's XML and the packed binary: the same bits back, one-line errors for
// bad content) and the CPU reference detector against a brute-force scan written without scan_pyramid.
#include <doctest/doctest.h>

#include <cstring>
#include <string>

#include "common/cov_cpu_detector.hpp"
#include "common/error.hpp"
#include "common/model_io.hpp"
#include "common/packed_model.hpp"
#include "common/resize_exact.hpp"
#include "tests/support/cov_test_model.hpp"
#include "tests/support/test_data.hpp"

using namespace cascade;

namespace {

std::optional<cv::Mat> calibration_image() {
    const auto path = test::system_file("/usr/share/doc/opencv-doc/examples/data/basketball1.png");
    if (!path) return std::nullopt;
    test::ImageSource source{"basketball1", *path};
    return test::load_gray(source);
}

GrayView view_of_mat(const cv::Mat& gray) { return {gray.data, gray.cols, gray.rows, static_cast<int>(gray.step)}; }

bool same_bits(const CovCascade& a, const CovCascade& b) {
    return a.window.width == b.window.width && a.window.height == b.window.height && a.policy == b.policy &&
           a.stages.size() == b.stages.size() && a.weaks.size() == b.weaks.size() &&
           std::memcmp(a.stages.data(), b.stages.data(), a.stages.size() * sizeof(Stage)) == 0 &&
           std::memcmp(a.weaks.data(), b.weaks.data(), a.weaks.size() * sizeof(CovWeak)) == 0;
}

// The message load_model_from_string gives for `xml`, or "" when it loads.
std::string load_error(const std::string& xml) {
    try {
        load_model_from_string(xml, "bad.xml");
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
    const std::size_t at = text.find(from);
    REQUIRE(at != std::string::npos);
    return text.replace(at, from.size(), to);
}

}  // namespace

TEST_CASE("cov model: XML and packed round trips give the same bits -- bad files one-line errors") {
    const auto gray = calibration_image();
    if (!gray) return;
    Model model;
    model.cascade = test::random_cov_cascade(21, 3, 4, view_of_mat(*gray));
    model.source = "random";
    const std::string xml = model_xml(model, "random.xml");
    CHECK(xml.find("kind=\"cov\"") != std::string::npos);
    CHECK(xml.find("mapping=\"tangent\"") != std::string::npos);
    CHECK(xml.find("limit=\"1.5\"") != std::string::npos);
    CHECK(xml.find("descriptor=\"lbp-histogram\" first-bin=") != std::string::npos);
    const Model back = load_model_from_string(xml, "random.xml");
    CHECK(same_bits(std::get<CovCascade>(back.cascade), std::get<CovCascade>(model.cascade)));
    const std::vector<std::uint8_t> packed = pack_model(compile_model(back));
    const PackedModel unpacked = unpack_model(packed.data(), packed.size(), "random.cpk");
    CHECK(same_bits(std::get<CovCascade>(unpacked.model.cascade), std::get<CovCascade>(model.cascade)));

    const std::string first = "<cov x=\"" + std::to_string(std::get<CovCascade>(model.cascade).weaks[0].rect.x) + "\"";
    CHECK(load_error(replaced(xml, first, "<cov x=\"2\"")).find("is not on the 4-pixel grid") != std::string::npos);
    const std::string version = "format_version=\"" + std::to_string(kModelFormatVersion) + "\"";
    CHECK(load_error(replaced(xml, version, "format_version=\"5\"")).find("needs format_version 6") != std::string::npos);
    CHECK(load_error(replaced(xml, "mapping=\"tangent\"", "mapping=\"euclid\"")).find("mapping 'euclid'") !=
          std::string::npos);
    CHECK(load_error(replaced(xml, "<weights>", "<weights>1 ")).find("holds 37 values, expected 36") !=
          std::string::npos);
    CHECK(load_error(replaced(xml, "mapping=\"tangent\"", "")).find("is not allowed in this <cov>") !=
          std::string::npos);
    CHECK(load_error(replaced(xml, "width=\"64\"", "width=\"66\"")).find("not a multiple of 4") != std::string::npos);
    CHECK(load_error(replaced(xml, version, "format_version=\"9\"")).find("lbp-histogram needs format_version 10") !=
          std::string::npos);
    CHECK(load_error(replaced(xml, "descriptor=\"lbp-histogram\"", "descriptor=\"hog\"")).find("descriptor 'hog'") !=
          std::string::npos);
    CHECK(load_error(replaced(xml, "descriptor=\"lbp-histogram\"", "")).find("first-bin belongs to") !=
          std::string::npos);
    CHECK(load_error(replaced(xml, "first-bin=\"", "first-bin=\"7")).find("is outside 0..58") != std::string::npos);
    for (const std::string& message : {load_error(replaced(xml, "limit=\"1.5\"", "limit=\"-1\"")),
                                       load_error(replaced(xml, "<weights>", "<weights>nan "))})
        CHECK(message.find('\n') == std::string::npos);
}

namespace {

// Every window of every level at stride 8, evaluated with accept_window on planes built here.
std::vector<Detection> brute_force(const CovCascade& c, const GrayView& image, const ScanParams& params) {
    std::vector<Detection> found;
    const CovCascadeView view = view_of(c);
    for (const PyramidLevel& level : pyramid_levels(image.size(), c.window, params.pyramid)) {
        const GrayImage pixels = level_pixels(image, level);
        CovPlanes planes;
        compute_cov_planes(pixels.view(), planes, true);
        const CovLbpGridView sampler = planes.lbp_sampler();  // CovWindow keeps a reference: not to a temporary
        for (int y = 0; y + c.window.height <= level.size.height; y += params.rule.stride)
            for (int x = 0; x + c.window.width <= level.size.width; x += params.rule.stride) {
                int rejected_at = 0;
                double score = 0;
                const CovWindow<CovLbpGridView> window(view, sampler, x, y);
                if (accept_window(view, window, rejected_at, score))
                    found.push_back({to_image(level, x, y), static_cast<float>(score)});
            }
    }
    std::sort(found.begin(), found.end(), [](const Detection& a, const Detection& b) { return a.rect < b.rect; });
    return found;
}

}  // namespace

TEST_CASE("cov CPU detector: the brute-force scan's windows and scores -- strides off the grid refused") {
    const auto gray = calibration_image();
    if (!gray) return;
    const GrayView image = view_of_mat(*gray);
    const CovCascade c = test::random_cov_cascade(33, 3, 4, image);  // learner 3 of each stage an LBP cell
    ScanParams params;
    params.pyramid.scale_factor = 1.25;
    params.rule.stride = 8;
    ScanStats stats;
    const std::vector<Detection> found = detect_windows(c, image, params, &stats);
    const std::vector<Detection> expected = brute_force(c, image, params);
    REQUIRE(found.size() == expected.size());
    CHECK(!found.empty());
    for (std::size_t i = 0; i < found.size(); ++i) {
        CHECK(found[i].rect == expected[i].rect);
        CHECK(found[i].score == expected[i].score);
    }
    CHECK(stats.rejected_at.size() == 4);
    CHECK(stats.rejected_at[0] > 0);
    CHECK(stats.rejected_at[3] == static_cast<std::int64_t>(found.size()));
    for (int stride : {0, 6, 2}) {
        params.rule.stride = stride;
        CHECK_THROWS_WITH_AS(detect_windows(c, image, params), doctest::Contains("grid of 4 pixels"), InputError);
    }
}
