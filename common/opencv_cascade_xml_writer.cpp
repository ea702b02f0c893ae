// Writer of OpenCV's cascade XML for LBP and Haar stump cascades (common/opencv_cascade_xml.hpp): the inverse
// of lbp_cascade_from_opencv_xml and haar_cascade_from_opencv_xml on the cascades it can express.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <tuple>
#include <sstream>

#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "common/opencv_cascade_xml.hpp"

namespace cascade {

namespace {

constexpr float kThresholdEps = 1e-5f;  // OpenCV's THRESHOLD_EPS, taken off every stage threshold as it loads

std::string float_text(float v) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.9g", static_cast<double>(v));
    return buffer;
}

// The float OpenCV must read for a stage so that, lowered by THRESHOLD_EPS, it compares against `threshold`.
float written_threshold(float threshold, int stage, const std::string& source) {
    float up = threshold + kThresholdEps, down = up;
    for (int step = 0; step < 64; ++step) {
        if (up - kThresholdEps == threshold) return up;
        if (down - kThresholdEps == threshold) return down;
        up = std::nextafter(up, INFINITY);
        down = std::nextafter(down, -INFINITY);
    }
    throw InputError(source, "stage " + std::to_string(stage) + "'s threshold " + float_text(threshold) +
                                 " cannot be written so that OpenCV (which lowers it by 1e-5) reads it back");
}

// A response table as OpenCV's categorical stump: the subset words (bit c set: leaf0) and the two leaves.
struct Stump {
    std::uint32_t subset[kLbpCodes / 32] = {};
    float leaf0 = 0.f, leaf1 = 0.f;
};

Stump stump_of(const float* table, int weak, const std::string& source) {
    Stump s;
    s.leaf1 = table[0];
    s.leaf0 = table[0];
    bool second = false;
    for (int c = 0; c < kLbpCodes; ++c) {
        if (table[c] == s.leaf1) continue;
        if (second && table[c] != s.leaf0)
            throw InputError(source, "weak learner " + std::to_string(weak) +
                                         " has more than two response values: OpenCV's LBP stumps have two");
        s.leaf0 = table[c];
        second = true;
        s.subset[c >> 5] |= 1u << (c & 31);
    }
    return s;
}

// Everything before <stages>: the cascade's kind, window and training parameters.
void write_head(std::ostringstream& out, const char* feature_type, Size window, std::size_t stages,
                const OpenCvStageParams& params, const std::string& feature_params) {
    out << "<?xml version=\"1.0\"?>\n<opencv_storage>\n<cascade type_id=\"opencv-cascade-classifier\">\n"
        << "  <stageType>BOOST</stageType>\n  <featureType>" << feature_type << "</featureType>\n"
        << "  <height>" << window.height << "</height>\n  <width>" << window.width << "</width>\n"
        << "  <stageParams>\n    <boostType>" << params.boost_type << "</boostType>\n"
        << "    <minHitRate>" << params.min_hit_rate << "</minHitRate>\n"
        << "    <maxFalseAlarm>" << params.max_false_alarm << "</maxFalseAlarm>\n"
        << "    <weightTrimRate>" << params.weight_trim_rate << "</weightTrimRate>\n"
        << "    <maxDepth>" << params.max_depth << "</maxDepth>\n    <maxWeakCount>" << params.max_weak_count << "</maxWeakCount></stageParams>\n"
        << "  <featureParams>\n" << feature_params << "</featureParams>\n"
        << "  <stageNum>" << stages << "</stageNum>\n  <stages>\n";
}

void open_stage(std::ostringstream& out, const Stage& stage, std::size_t s, const std::string& source) {
    if (std::isfinite(stage.accept))
        throw InputError(source, "stage " + std::to_string(s) + " has an acceptance threshold, which OpenCV lacks");
    out << "    <!-- stage " << s << " -->\n    <_>\n      <maxWeakCount>" << stage.count << "</maxWeakCount>\n"
        << "      <stageThreshold>" << float_text(written_threshold(stage.threshold, static_cast<int>(s), source))
        << "</stageThreshold>\n      <weakClassifiers>\n";
}

}  // namespace

std::string opencv_cascade_xml(const LbpCascade& cascade, const OpenCvStageParams& params, const std::string& source) {
    if (cascade.policy != SumPolicy::per_stage)
        throw InputError(source, "a running-sum (WaldBoost) cascade has no OpenCV form: OpenCV's stage sums restart "
                                 "at zero in each stage");
    std::map<std::tuple<int, int, int, int>, int> feature_index;
    std::vector<LbpFeature> features;
    for (const LbpWeak& w : cascade.weaks) {
        const auto key = std::make_tuple(w.feature.x, w.feature.y, w.feature.width, w.feature.height);
        if (feature_index.emplace(key, static_cast<int>(features.size())).second) features.push_back(w.feature);
    }
    std::ostringstream out;
    write_head(out, "LBP", cascade.window, cascade.stages.size(), params, "    <maxCatCount>256</maxCatCount>");
    for (std::size_t s = 0; s < cascade.stages.size(); ++s) {
        const Stage& stage = cascade.stages[s];
        open_stage(out, stage, s, source);
        for (int i = stage.first; i < stage.first + stage.count; ++i) {
            const LbpWeak& w = cascade.weaks[static_cast<std::size_t>(i)];
            const Stump stump =
                stump_of(cascade.responses.data() + static_cast<std::size_t>(w.table) * kLbpCodes, i, source);
            out << "        <_>\n          <internalNodes>\n            0 -1 "
                << feature_index.at(std::make_tuple(w.feature.x, w.feature.y, w.feature.width, w.feature.height));
            for (const std::uint32_t word : stump.subset) out << " " << static_cast<std::int32_t>(word);
            out << "</internalNodes>\n          <leafValues>\n            " << float_text(stump.leaf0) << " "
                << float_text(stump.leaf1) << "</leafValues></_>\n";
        }
        out << "      </weakClassifiers></_>\n";
    }
    out << "  </stages>\n  <features>\n";
    for (const LbpFeature& f : features)
        out << "    <_>\n      <rect>\n        " << f.x << " " << f.y << " " << f.width << " " << f.height
            << "</rect></_>\n";
    out << "  </features>\n</cascade>\n</opencv_storage>\n";
    return out.str();
}

void save_opencv_cascade(const LbpCascade& cascade, const OpenCvStageParams& params, const std::string& path) {
    write_file_atomically(path, opencv_cascade_xml(cascade, params, path));
}

std::string opencv_cascade_xml(const HaarCascade& cascade, const OpenCvStageParams& params, const std::string& source) {
    if (cascade.policy != SumPolicy::per_stage)
        throw InputError(source, "a running-sum cascade has no OpenCV form: OpenCV's stage sums restart at zero");
    std::ostringstream out;
    write_head(out, "HAAR", cascade.window, cascade.stages.size(), params,
               "    <maxCatCount>0</maxCatCount>\n    <featSize>1</featSize>\n    <mode>" + params.haar_mode + "</mode>");
    for (std::size_t s = 0; s < cascade.stages.size(); ++s) {
        const Stage& stage = cascade.stages[s];
        open_stage(out, stage, s, source);
        for (int i = stage.first; i < stage.first + stage.count; ++i) {
            const HaarTree& tree = cascade.weaks[static_cast<std::size_t>(i)];
            out << "        <_>\n          <internalNodes>\n           ";
            for (int n = tree.first_node; n < tree.first_node + tree.node_count; ++n) {
                const HaarNode& node = cascade.nodes[static_cast<std::size_t>(n)];
                if (node.feature.tilted && params.haar_mode != "ALL")
                    throw InputError(source, "weak learner " + std::to_string(i) + " has a tilted feature, which mode " +
                                                 params.haar_mode + " lacks (only ALL has them)");
                out << " " << node.left << " " << node.right << " " << n << " " << float_text(node.threshold);
            }
            out << "</internalNodes>\n          <leafValues>\n           ";
            for (int l = tree.first_leaf; l <= tree.first_leaf + tree.node_count; ++l)
                out << " " << float_text(cascade.leaves[static_cast<std::size_t>(l)]);
            out << "</leafValues></_>\n";
        }
        out << "      </weakClassifiers></_>\n";
    }
    out << "  </stages>\n  <features>\n";
    for (const HaarNode& node : cascade.nodes) {  // one feature per node, in weak-learner order
        out << "    <_>\n      <rects>\n";
        for (const HaarRect& r : node.feature.rects)
            if (r.weight != 0.f)
                out << "        <_>\n          " << r.x << " " << r.y << " " << r.width << " " << r.height << " "
                    << float_text(r.weight) << "</_>\n";
        out << "      </rects>\n      <tilted>" << node.feature.tilted << "</tilted></_>\n";
    }
    out << "  </features>\n</cascade>\n</opencv_storage>\n";
    return out.str();
}

void save_opencv_cascade(const HaarCascade& cascade, const OpenCvStageParams& params, const std::string& path) {
    write_file_atomically(path, opencv_cascade_xml(cascade, params, path));
}

}  // namespace cascade
