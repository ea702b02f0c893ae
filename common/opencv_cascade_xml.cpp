#include "common/opencv_cascade_xml.hpp"

#include <tinyxml2.h>

#include <cfloat>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.hpp"
#include "common/opencv_xml_values.hpp"
#include "common/xml_fields.hpp"

namespace cascade {

namespace {

using tinyxml2::XMLElement;
using namespace opencv_xml;
using xml::at;

// A stump's internalNodes: left (0), right (-1), featureIdx, then 256 / 32 subset words.
constexpr int kSubsetWords = kLbpCodes / 32;
constexpr int kStumpNodeValues = 3 + kSubsetWords;

std::vector<LbpFeature> read_features(const XMLElement& cascade_el, const std::string& source) {
    const XMLElement& features_el = child(cascade_el, "features", source);
    std::vector<LbpFeature> features;
    for (const XMLElement* f = features_el.FirstChildElement(); f; f = f->NextSiblingElement()) {
        const XMLElement& rect_el = child(*f, "rect", source);
        const std::vector<int> r = ints_of(rect_el, source);
        if (r.size() != 4)
            throw InputError(source, at(rect_el) + " of feature " + std::to_string(features.size()) + " holds " +
                                         std::to_string(r.size()) + " values, expected x y width height");
        for (int v : r)
            if (v < std::numeric_limits<std::int16_t>::min() || v > std::numeric_limits<std::int16_t>::max())
                throw InputError(source, at(rect_el) + " of feature " + std::to_string(features.size()) +
                                             ": value " + std::to_string(v) + " is out of range");
        LbpFeature lf;
        lf.x = static_cast<std::int16_t>(r[0]);
        lf.y = static_cast<std::int16_t>(r[1]);
        lf.width = static_cast<std::int16_t>(r[2]);
        lf.height = static_cast<std::int16_t>(r[3]);
        features.push_back(lf);
    }
    if (features.empty()) throw InputError(source, at(features_el) + " is empty");
    return features;
}

// Refuses what this reader does not read: other stage or feature types (Haar cascades go to
// haar_cascade_from_opencv_xml), trees deeper than stumps, LBP with other than 256 categories.
void check_supported(const XMLElement& root, const std::string& source) {
    const std::string stage_type = word_of(child(root, "stageType", source));
    if (stage_type != "BOOST")
        throw InputError(source, "stageType '" + stage_type + "' is not supported; only BOOST cascades");
    const std::string feature_type = word_of(child(root, "featureType", source));
    if (feature_type != "LBP")
        throw InputError(source, "featureType " + (feature_type.empty() ? std::string("(empty)") : feature_type) +
                                     " is not supported (LBP and HAAR cascades are)");

    if (const XMLElement* stage_params = root.FirstChildElement("stageParams"))
        if (const XMLElement* depth_el = stage_params->FirstChildElement("maxDepth")) {
            const int depth = single_int(*depth_el, source);
            if (depth != 1)
                throw InputError(source, "maxDepth " + std::to_string(depth) +
                                             ": trees deeper than stumps are not supported (maxDepth must be 1)");
        }

    const XMLElement& feature_params = child(root, "featureParams", source);
    const int categories = single_int(child(feature_params, "maxCatCount", source), source);
    if (categories != kLbpCodes)
        throw InputError(source, "maxCatCount " + std::to_string(categories) +
                                     " is not supported (LBP stumps have 256 categories)");
}

// One weak classifier (a categorical stump) appended to `out`: its weak learner and its 256 responses.
// `where` names it in errors.
void read_stump(const XMLElement& w, const std::string& where, const std::vector<LbpFeature>& features,
                LbpCascade& out, const std::string& source) {
    const std::vector<int> nodes = ints_of(child(w, "internalNodes", source), source);
    const std::vector<float> leaves = floats_of(child(w, "leafValues", source), source);
    if (nodes.size() != static_cast<std::size_t>(kStumpNodeValues)) {
        if (nodes.size() > static_cast<std::size_t>(kStumpNodeValues) && nodes.size() % kStumpNodeValues == 0)
            throw InputError(source, where + "a tree of " + std::to_string(nodes.size() / kStumpNodeValues) +
                                         " nodes; only stumps (maxDepth 1) are supported");
        throw InputError(source, where + "internalNodes holds " + std::to_string(nodes.size()) +
                                     " values; a stump has " + std::to_string(kStumpNodeValues) +
                                     " (0 -1 featureIdx and 8 subset words)");
    }
    if (nodes[0] != 0 || nodes[1] != -1)
        throw InputError(source, where + "internalNodes starts '" + std::to_string(nodes[0]) + " " +
                                     std::to_string(nodes[1]) + "', not a stump's '0 -1'");
    if (leaves.size() != 2)
        throw InputError(source, where + "leafValues holds " + std::to_string(leaves.size()) + " values; a stump has 2");
    const int feature_index = nodes[2];
    if (feature_index < 0 || static_cast<std::size_t>(feature_index) >= features.size())
        throw InputError(source, where + "feature index " + std::to_string(feature_index) +
                                     " is out of range (there are " + std::to_string(features.size()) + " features)");

    LbpWeak weak;
    weak.feature = features[static_cast<std::size_t>(feature_index)];
    weak.table = static_cast<int>(out.weaks.size());
    out.weaks.push_back(weak);
    // predictCategoricalStump: subset[c >> 5] & (1 << (c & 31)) ? leaf0 : leaf1.
    for (int c = 0; c < kLbpCodes; ++c) {
        const auto word = static_cast<std::uint32_t>(nodes[static_cast<std::size_t>(3 + (c >> 5))]);
        const bool in_subset = ((word >> (c & 31)) & 1u) != 0;
        out.responses.push_back(in_subset ? leaves[0] : leaves[1]);
    }
}

}  // namespace

LbpCascade lbp_cascade_from_opencv_xml(const XMLElement& storage, const std::string& source) {
    const XMLElement* root = storage.FirstChildElement();
    if (!root) throw InputError(source, "the OpenCV storage holds no cascade");
    check_supported(*root, source);

    LbpCascade out;
    out.policy = SumPolicy::per_stage;
    out.window.width = single_int(child(*root, "width", source), source);
    out.window.height = single_int(child(*root, "height", source), source);
    const std::vector<LbpFeature> features = read_features(*root, source);

    const XMLElement& stages_el = child(*root, "stages", source);
    int stage_index = 0;
    for (const XMLElement* st = stages_el.FirstChildElement(); st; st = st->NextSiblingElement(), ++stage_index) {
        const std::string stage_name = "stage " + std::to_string(stage_index);
        Stage stage;
        // Exactly OpenCV's float: (float)stageThreshold - THRESHOLD_EPS, computed in float.
        const float raw_threshold = single_float(child(*st, "stageThreshold", source), source);
        stage.threshold = raw_threshold - kThresholdEps;
        stage.first = static_cast<int>(out.weaks.size());
        const XMLElement& weak_list = child(*st, "weakClassifiers", source);
        int k = 0;
        for (const XMLElement* w = weak_list.FirstChildElement(); w; w = w->NextSiblingElement(), ++k)
            read_stump(*w, stage_name + " weak classifier " + std::to_string(k) + " (" + at(*w) + "): ", features,
                       out, source);
        if (k == 0) throw InputError(source, stage_name + " (" + at(*st) + ") has no weak classifiers");
        stage.count = k;
        out.stages.push_back(stage);
    }
    return out;
}

}  // namespace cascade
