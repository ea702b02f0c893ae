// OpenCV's Haar cascades, both formats, as OpenCV 4.6 loads them (common/opencv_cascade_xml.hpp).
#include <tinyxml2.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.hpp"
#include "common/opencv_cascade_xml.hpp"
#include "common/opencv_xml_values.hpp"
#include "common/xml_fields.hpp"
#include "common/xml_text.hpp"

namespace cascade {

namespace {

using tinyxml2::XMLElement;
using namespace opencv_xml;
using xml::at;

std::string str(std::size_t v) { return std::to_string(v); }

std::int16_t short_value(int v, const XMLElement& e, const std::string& source) {
    if (v < std::numeric_limits<std::int16_t>::min() || v > std::numeric_limits<std::int16_t>::max())
        throw InputError(source, at(e) + " value " + std::to_string(v) + " is out of range");
    return static_cast<std::int16_t>(v);
}

// <rects> of "x y w h weight" items (1 to 3) and <tilted>, as HaarEvaluator::Feature::read reads them. The old
// format's converter writes a third rectangle only when |weight| >= FLT_EPSILON (`old_format`).
HaarFeature read_feature(const XMLElement& f, bool old_format, const std::string& source) {
    const XMLElement* rects = f.FirstChildElement("rects");
    if (!rects) throw InputError(source, at(f) + " (a feature) has no <rects>");
    HaarFeature out;
    int k = 0;
    for (const XMLElement* r = rects->FirstChildElement(); r; r = r->NextSiblingElement(), ++k) {
        if (k == kHaarRects) throw InputError(source, at(*rects) + " holds more than 3 rectangles");
        const std::string text = xml_text_of(*r);
        const std::vector<std::string_view> t = tokens(text);
        if (t.size() != 5)
            throw InputError(source, at(*r) + " holds " + str(t.size()) + " values, expected x y width height weight");
        HaarRect& rect = out.rects[k];
        rect.x = short_value(parse_int(t[0], *r, source), *r, source);
        rect.y = short_value(parse_int(t[1], *r, source), *r, source);
        rect.width = short_value(parse_int(t[2], *r, source), *r, source);
        rect.height = short_value(parse_int(t[3], *r, source), *r, source);
        rect.weight = parse_float(t[4], *r, source);
        if (old_format && k >= 2 && std::fabs(rect.weight) < FLT_EPSILON) rect = HaarRect{};
    }
    if (k == 0) throw InputError(source, at(*rects) + " holds no rectangles");
    if (const XMLElement* tilted = f.FirstChildElement("tilted")) out.tilted = single_int(*tilted, source) != 0 ? 1 : 0;
    return out;
}

// Appends one tree; `where` names it in errors.
void add_tree(HaarCascade& out, std::vector<HaarNode>& nodes, std::vector<float>& leaves, const std::string& where,
              const std::string& source) {
    if (nodes.empty()) throw InputError(source, where + "has no nodes");
    if (leaves.size() != nodes.size() + 1)
        throw InputError(source, where + "has " + str(nodes.size()) + " nodes and " + str(leaves.size()) +
                                     " leaves (a tree needs one leaf more than nodes)");
    out.weaks.push_back({static_cast<int>(out.nodes.size()), static_cast<int>(nodes.size()),
                         static_cast<int>(out.leaves.size())});
    out.nodes.insert(out.nodes.end(), nodes.begin(), nodes.end());
    out.leaves.insert(out.leaves.end(), leaves.begin(), leaves.end());
}

Stage stage_of(const XMLElement& threshold_el, int first, int count, const std::string& source) {
    Stage stage;
    stage.threshold = single_float(threshold_el, source) - kThresholdEps;  // OpenCV's float, as for LBP
    stage.first = first;
    stage.count = count;
    return stage;
}

// internalNodes "left right featureIdx threshold" per node (nodeStep 4 with maxCatCount 0).
void read_new_tree(const XMLElement& w, const std::vector<HaarFeature>& features, HaarCascade& out,
                   const std::string& where, const std::string& source) {
    const XMLElement& nodes_el = child(w, "internalNodes", source);
    const std::string text = xml_text_of(nodes_el);
    const std::vector<std::string_view> t = tokens(text);
    if (t.empty() || t.size() % 4 != 0)
        throw InputError(source, where + at(nodes_el) + " holds " + str(t.size()) +
                                     " values, not a positive multiple of 4 (left right featureIdx threshold)");
    std::vector<HaarNode> nodes;
    for (std::size_t i = 0; i < t.size(); i += 4) {
        HaarNode node;
        node.left = parse_int(t[i], nodes_el, source);
        node.right = parse_int(t[i + 1], nodes_el, source);
        const int f = parse_int(t[i + 2], nodes_el, source);
        if (f < 0 || static_cast<std::size_t>(f) >= features.size())
            throw InputError(source, where + "feature index " + std::to_string(f) + " is out of range (there are " +
                                         str(features.size()) + " features)");
        node.feature = features[static_cast<std::size_t>(f)];
        node.threshold = parse_float(t[i + 3], nodes_el, source);
        nodes.push_back(node);
    }
    std::vector<float> leaves = floats_of(child(w, "leafValues", source), source);
    add_tree(out, nodes, leaves, where, source);
}

HaarCascade read_new_format(const XMLElement& root, const std::string& source) {
    const std::string stage_type = word_of(child(root, "stageType", source));
    if (stage_type != "BOOST")
        throw InputError(source, "stageType '" + stage_type + "' is not supported; only BOOST cascades");
    const int categories = single_int(child(child(root, "featureParams", source), "maxCatCount", source), source);
    if (categories != 0)
        throw InputError(source, "maxCatCount " + std::to_string(categories) +
                                     " is not supported for Haar cascades (ordered features: 0)");
    HaarCascade out;
    out.window.width = single_int(child(root, "width", source), source);
    out.window.height = single_int(child(root, "height", source), source);

    std::vector<HaarFeature> features;
    const XMLElement& features_el = child(root, "features", source);
    for (const XMLElement* f = features_el.FirstChildElement(); f; f = f->NextSiblingElement())
        features.push_back(read_feature(*f, false, source));
    if (features.empty()) throw InputError(source, at(features_el) + " is empty");

    int s = 0;
    const XMLElement& stages_el = child(root, "stages", source);
    for (const XMLElement* st = stages_el.FirstChildElement(); st; st = st->NextSiblingElement(), ++s) {
        const int first = static_cast<int>(out.weaks.size());
        int k = 0;
        const XMLElement& list = child(*st, "weakClassifiers", source);
        for (const XMLElement* w = list.FirstChildElement(); w; w = w->NextSiblingElement(), ++k)
            read_new_tree(*w, features, out,
                          "stage " + std::to_string(s) + " weak classifier " + std::to_string(k) + " (" + at(*w) +
                              "): ",
                          source);
        out.stages.push_back(stage_of(child(*st, "stageThreshold", source), first, k, source));
    }
    return out;
}

// One node's child: <left_val> becomes the next leaf (numbered in the order the nodes name them), else
// <left_node> is a node index.
std::int32_t old_child(const XMLElement& node, const char* val, const char* index, std::vector<float>& leaves,
                       const std::string& source) {
    if (const XMLElement* v = node.FirstChildElement(val)) {
        leaves.push_back(single_float(*v, source));
        return -static_cast<std::int32_t>(leaves.size() - 1);
    }
    const XMLElement* n = node.FirstChildElement(index);
    if (!n) throw InputError(source, at(node) + " has neither <" + val + "> nor <" + index + ">");
    return single_int(*n, source);
}

HaarCascade read_old_format(const XMLElement& root, const std::string& source) {
    HaarCascade out;
    const std::vector<int> size = ints_of(child(root, "size", source), source);
    if (size.size() != 2)
        throw InputError(source, at(*root.FirstChildElement("size")) + " holds " + str(size.size()) +
                                     " values, expected width height");
    out.window = {size[0], size[1]};
    int s = 0;
    const XMLElement& stages_el = child(root, "stages", source);
    for (const XMLElement* st = stages_el.FirstChildElement(); st; st = st->NextSiblingElement(), ++s) {
        const int first = static_cast<int>(out.weaks.size());
        int k = 0;
        const XMLElement& trees = child(*st, "trees", source);
        for (const XMLElement* tree = trees.FirstChildElement(); tree; tree = tree->NextSiblingElement(), ++k) {
            std::vector<HaarNode> nodes;
            std::vector<float> leaves;
            for (const XMLElement* n = tree->FirstChildElement(); n; n = n->NextSiblingElement()) {
                HaarNode node;
                node.feature = read_feature(child(*n, "feature", source), true, source);
                node.threshold = single_float(child(*n, "threshold", source), source);
                node.left = old_child(*n, "left_val", "left_node", leaves, source);
                node.right = old_child(*n, "right_val", "right_node", leaves, source);
                nodes.push_back(node);
            }
            add_tree(out, nodes, leaves,
                     "stage " + std::to_string(s) + " tree " + std::to_string(k) + " (" + at(*tree) + "): ", source);
        }
        out.stages.push_back(stage_of(child(*st, "stage_threshold", source), first, k, source));
    }
    return out;
}

bool is_old_format(const XMLElement& root) {
    const char* type_id = root.Attribute("type_id");
    return (type_id && std::string_view(type_id) == "opencv-haar-classifier") ||
           (!root.FirstChildElement("stageType") && root.FirstChildElement("size"));
}

}  // namespace

bool is_opencv_haar(const XMLElement& storage) {
    const XMLElement* root = storage.FirstChildElement();
    if (!root) return false;
    if (is_old_format(*root)) return true;
    const XMLElement* type = root->FirstChildElement("featureType");
    return type && word_of(*type) == "HAAR";
}

HaarCascade haar_cascade_from_opencv_xml(const XMLElement& storage, const std::string& source) {
    const XMLElement* root = storage.FirstChildElement();
    if (!root) throw InputError(source, "the OpenCV storage holds no cascade");
    HaarCascade out = is_old_format(*root) ? read_old_format(*root, source) : read_new_format(*root, source);
    out.policy = SumPolicy::per_stage;
    return out;
}

}  // namespace cascade
