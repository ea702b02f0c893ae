// Haar cascades (common/opencv_haar_xml.cpp, haar_model_xml.cpp, haar_integrals.cpp): OpenCV's files read as
// OpenCV's FileStorage reads them, bit-exact round trips through the project's XML and the packed form, the
// integral images against cv::integral, and bad input. Detection itself: test_opencv_parity.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>
#include <string>
#include <variant>
#include <vector>

#include "common/haar_eval.hpp"
#include "common/haar_integrals.hpp"
#include "common/model_io.hpp"
#include "common/packed_model.hpp"
#include "tests/support/scratch_files.hpp"
#include "tests/support/test_data.hpp"

namespace {

using cascade::HaarCascade;

std::string read_text(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_text(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

std::string replace_once(std::string text, const std::string& from, const std::string& to) {
    const std::size_t at = text.find(from);
    REQUIRE_MESSAGE(at != std::string::npos, "'" << from << "' not found");
    return text.replace(at, from.size(), to);
}

template <class T>
bool same_bytes(const std::vector<T>& a, const std::vector<T>& b) {
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

// Every node of a new-format cascade against what OpenCV's FileStorage reads from the same file: children,
// threshold and leaves as OpenCV's float, the feature's rectangles and tilted flag.
void check_against_filestorage(const std::string& path, const HaarCascade& c) {
    cv::FileStorage fs(path, cv::FileStorage::READ);
    const cv::FileNode root = fs.getFirstTopLevelNode();
    const cv::FileNode features = root["features"];
    std::size_t weak = 0, node_index = 0;
    for (const cv::FileNode& stage : root["stages"]) {
        for (const cv::FileNode& w : stage["weakClassifiers"]) {
            REQUIRE(weak < c.weaks.size());
            const cascade::HaarTree& tree = c.weaks[weak++];
            const cv::FileNode nodes = w["internalNodes"], leaves = w["leafValues"];
            REQUIRE(static_cast<int>(nodes.size()) == 4 * tree.node_count);
            for (int n = 0; n < tree.node_count; ++n, ++node_index) {
                const cascade::HaarNode& node = c.nodes[static_cast<std::size_t>(tree.first_node + n)];
                CHECK(node.left == static_cast<int>(nodes[4 * n]));
                CHECK(node.right == static_cast<int>(nodes[4 * n + 1]));
                CHECK(node.threshold == static_cast<float>(nodes[4 * n + 3]));
                const cv::FileNode f = features[static_cast<int>(nodes[4 * n + 2])];
                CHECK(node.feature.tilted == (static_cast<int>(f["tilted"]) != 0 ? 1 : 0));
                int k = 0;
                for (const cv::FileNode& r : f["rects"]) {
                    const cascade::HaarRect& rect = node.feature.rects[k++];
                    CHECK(rect.x == static_cast<int>(r[0]));
                    CHECK(rect.width == static_cast<int>(r[2]));
                    CHECK(rect.weight == static_cast<float>(r[4]));
                }
            }
            for (int l = 0; l <= tree.node_count; ++l)
                CHECK(c.leaves[static_cast<std::size_t>(tree.first_leaf + l)] == static_cast<float>(leaves[l]));
        }
    }
    CHECK(weak == c.weaks.size());
    CHECK(node_index == c.nodes.size());
}

}  // namespace

TEST_CASE("OpenCV's Haar cascades read as OpenCV reads them and round-trip bit-identically") {
    cascade::test::ScratchDir dir("haar-models");
    int trees = 0, tilted = 0;
    for (const std::string& path : cascade::test::opencv_haar_cascades()) {
        INFO(path);
        const cascade::Model original = cascade::load_model(path);
        const auto& c = std::get<HaarCascade>(original.cascade);
        for (const cascade::HaarTree& t : c.weaks) trees += t.node_count > 1;
        for (const cascade::HaarNode& n : c.nodes) tilted += n.feature.tilted;
        if (read_text(path).find("opencv-haar-classifier") == std::string::npos) check_against_filestorage(path, c);

        const std::string saved = dir.file("saved.xml");
        cascade::save_model(original, saved);
        const cascade::Model reloaded = cascade::load_model(saved);
        const auto& r = std::get<HaarCascade>(reloaded.cascade);
        CHECK(same_bytes(c.stages, r.stages));
        CHECK(same_bytes(c.weaks, r.weaks));
        CHECK(same_bytes(c.nodes, r.nodes));
        CHECK(same_bytes(c.leaves, r.leaves));
        CHECK(cascade::model_xml(reloaded, saved) == read_text(saved));

        const std::vector<std::uint8_t> packed = cascade::pack_model(cascade::compile_model(original));
        const cascade::PackedModel unpacked = cascade::unpack_model(packed.data(), packed.size(), "packed");
        const auto& u = std::get<HaarCascade>(unpacked.model.cascade);
        CHECK(same_bytes(c.nodes, u.nodes));
        CHECK(same_bytes(c.leaves, u.leaves));
        CHECK(cascade::pack_model(unpacked) == packed);
    }
    // The files hold trees deeper than stumps and tilted features: both were read.
    if (!cascade::test::opencv_haar_cascades().empty()) {
        CHECK(trees > 100);
        CHECK(tilted > 100);
    }
}

TEST_CASE("integral, squared and tilted integral images equal cv::integral's (CV_32S, as OpenCV's Haar uses)") {
    int compared = 0;
    for (const auto& source : cascade::test::real_images()) {
        INFO(source.label);
        const cv::Mat gray = cascade::test::load_gray(source);
        cv::Mat sum, squares, tilted;
        cv::integral(gray, sum, squares, tilted, CV_32S, CV_32S);
        cascade::HaarIntegrals ours;
        cascade::compute_haar_integrals({gray.data, gray.cols, gray.rows, static_cast<int>(gray.step)}, ours);
        const auto same = [&](const cv::Mat& theirs, const std::vector<std::uint32_t>& mine) {
            REQUIRE(theirs.isContinuous());
            return mine.size() == theirs.total() &&
                   std::memcmp(mine.data(), theirs.data, mine.size() * sizeof(std::uint32_t)) == 0;
        };
        CHECK(same(sum, ours.sums));
        CHECK(same(squares, ours.squares));  // wraps modulo 2^32 on the larger images, as OpenCV's int does
        CHECK(same(tilted, ours.tilted));
        ++compared;
    }
    CHECK(compared >= static_cast<int>(cascade::test::real_images().size()));
}

TEST_CASE("bad Haar cascades give one line naming the file and the element") {
    const auto face = cascade::test::system_file("/usr/share/opencv4/haarcascades/haarcascade_frontalface_default.xml");
    if (!face) return;
    cascade::test::ScratchDir dir("haar-bad");
    const std::string original = read_text(*face);
    const std::string path = dir.file("bad.xml");
    const auto error_for = [&](const std::string& text) {
        write_text(path, text);
        const std::string message = cascade::test::input_error([&] { cascade::load_model(path); });
        CHECK(message.rfind(path + ": ", 0) == 0);
        CHECK(message.find('\n') == std::string::npos);
        return message;
    };
    const std::string first_rect = "6 4 12 9 -1.</_>";
    CHECK(error_for(replace_once(original, first_rect, "6 4 19 9 -1.</_>"))
              .find("stage 0 weak learner 0 (#0): node 0: rect 0 (6,4,19,9) leaves the 24x24 window") !=
          std::string::npos);
    CHECK(error_for(replace_once(original, first_rect, "6 4 12 9 nan</_>")).find("value 'nan' is not a finite") !=
          std::string::npos);
    const std::string no_rects = replace_once(replace_once(original, "<rects>", "<rectz>"), "</rects>", "</rectz>");
    CHECK(error_for(no_rects).find(": <_> (a feature) has no <rects>") != std::string::npos);
    CHECK(error_for(replace_once(original, "<featureType>HAAR", "<featureType>SURF"))
              .find("featureType SURF is not supported (LBP and HAAR cascades are)") != std::string::npos);
    CHECK(error_for(replace_once(original, first_rect, first_rect + "<_>1 1 2 2 1.</_><_>1 1 2 2 1.</_>"))
              .find("holds more than 3 rectangles") != std::string::npos);
    CHECK(error_for(replace_once(original, "<leafValues>\n            2.0875", "<leafValues>\n            1.0 2.0875"))
              .find("has 1 nodes and 3 leaves") != std::string::npos);
}

// common/haar_eval.hpp exact_stage_sums: when it holds, the GPU's warps and blocks add a stage's leaves side by
// side and must still get the CPU's sum in order.
TEST_CASE("exact stage sums: OpenCV's cascades add to the same double in any order, a tiny leaf breaks that") {
    const auto face = cascade::test::system_file("/usr/share/opencv4/haarcascades/haarcascade_frontalface_default.xml");
    if (!face) return;
    HaarCascade c = std::get<HaarCascade>(cascade::load_model(*face).cascade);
    REQUIRE(cascade::exact_stage_sums(c));
    for (const cascade::Stage& s : c.stages) {  // each tree's first and last leaf, forwards and backwards
        double forwards = 0.0, backwards = 0.0;
        for (int t = s.first; t < s.first + s.count; ++t) {
            const cascade::HaarTree& tree = c.weaks[static_cast<std::size_t>(t)];
            forwards += c.leaves[static_cast<std::size_t>(tree.first_leaf)];
            forwards += c.leaves[static_cast<std::size_t>(tree.first_leaf + tree.node_count)];
        }
        for (int t = s.first + s.count - 1; t >= s.first; --t) {
            const cascade::HaarTree& tree = c.weaks[static_cast<std::size_t>(t)];
            backwards += c.leaves[static_cast<std::size_t>(tree.first_leaf + tree.node_count)];
            backwards += c.leaves[static_cast<std::size_t>(tree.first_leaf)];
        }
        CHECK(forwards == backwards);
    }
    c.leaves[0] = 1e-30f;  // 2^-100 beside leaves near 1: partial sums need more than 53 bits
    CHECK_FALSE(cascade::exact_stage_sums(c));
    c.leaves[0] = 0.f;  // a zero leaf adds nothing
    CHECK(cascade::exact_stage_sums(c));
    c.policy = cascade::SumPolicy::running;  // the bound over the whole cascade: 25 stages of up to 207
    CHECK(cascade::exact_stage_sums(c));
}
