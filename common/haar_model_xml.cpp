// The weak learners of a haar model in the project's XML format (docs/model-format.md):
//   <tree leaves="l0 l1 ..."> <node threshold="t" left="L" right="R" [tilted="1"]> <rect x y w h weight/>...
#include <tinyxml2.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "common/model_xml_parts.hpp"
#include "common/xml_fields.hpp"

namespace cascade {

namespace {

using tinyxml2::XMLElement;
using namespace xml;

HaarNode read_node(const XMLElement& n, const std::string& source) {
    only_attributes(n, {"threshold", "left", "right", "tilted"}, source);
    HaarNode node;
    node.threshold = float_attribute(n, "threshold", source);
    node.left = int_attribute(n, "left", source);
    node.right = int_attribute(n, "right", source);
    if (n.Attribute("tilted"))
        node.feature.tilted = static_cast<std::int32_t>(int_attribute(n, "tilted", 0, 1, source));
    int k = 0;
    for (const XMLElement* r = n.FirstChildElement(); r; r = r->NextSiblingElement(), ++k) {
        if (std::strcmp(r->Name(), "rect") != 0)
            throw InputError(source, at(*r) + " is not allowed in a <node> (only <rect>)");
        if (k == kHaarRects) throw InputError(source, at(n) + " holds more than 3 <rect>");
        only_attributes(*r, {"x", "y", "w", "h", "weight"}, source);
        HaarRect& rect = node.feature.rects[k];
        rect.x = short_attribute(*r, "x", source);
        rect.y = short_attribute(*r, "y", source);
        rect.width = short_attribute(*r, "w", source);
        rect.height = short_attribute(*r, "h", source);
        rect.weight = float_attribute(*r, "weight", source);
    }
    if (k == 0) throw InputError(source, at(n) + " has no <rect>");
    return node;
}

bool is_unused(const HaarRect& r) {
    return r.x == 0 && r.y == 0 && r.width == 0 && r.height == 0 && r.weight == 0.f && !std::signbit(r.weight);
}

void append_node(std::string& out, const HaarNode& node) {
    out += "      <node";
    append_attr(out, "threshold", node.threshold);
    append_attr(out, "left", static_cast<long long>(node.left));
    append_attr(out, "right", static_cast<long long>(node.right));
    if (node.feature.tilted) append_attr(out, "tilted", 1LL);
    out += ">\n";
    int count = kHaarRects;  // trailing unused rectangles are left out; they read back as unused
    while (count > 1 && is_unused(node.feature.rects[count - 1])) --count;
    for (int k = 0; k < count; ++k) {
        const HaarRect& r = node.feature.rects[k];
        out += "        <rect";
        append_attr(out, "x", static_cast<long long>(r.x));
        append_attr(out, "y", static_cast<long long>(r.y));
        append_attr(out, "w", static_cast<long long>(r.width));
        append_attr(out, "h", static_cast<long long>(r.height));
        append_attr(out, "weight", r.weight);
        out += "/>\n";
    }
    out += "      </node>\n";
}

}  // namespace

void read_haar_weaks(const XMLElement& list, HaarCascade& c, const std::string& source) {
    for (const XMLElement* t = list.FirstChildElement(); t; t = t->NextSiblingElement()) {
        if (std::strcmp(t->Name(), "tree") != 0)
            throw InputError(source, at(*t) + " is not allowed in the <weak_learners> of a haar model");
        only_attributes(*t, {"leaves"}, source);
        HaarTree tree;
        tree.first_node = static_cast<int>(c.nodes.size());
        tree.first_leaf = static_cast<int>(c.leaves.size());
        for (const XMLElement* n = t->FirstChildElement(); n; n = n->NextSiblingElement()) {
            if (std::strcmp(n->Name(), "node") != 0)
                throw InputError(source, at(*n) + " is not allowed in a <tree> (only <node>)");
            c.nodes.push_back(read_node(*n, source));
        }
        tree.node_count = static_cast<int>(c.nodes.size()) - tree.first_node;
        const std::vector<float> leaves =
            float_list_attribute(*t, "leaves", 1, std::numeric_limits<int>::max(), source);
        if (leaves.size() != static_cast<std::size_t>(tree.node_count) + 1)
            throw InputError(source, at(*t) + " has " + std::to_string(tree.node_count) + " nodes and " +
                                         std::to_string(leaves.size()) + " leaves (needs one leaf more than nodes)");
        c.leaves.insert(c.leaves.end(), leaves.begin(), leaves.end());
        c.weaks.push_back(tree);
    }
}

std::string to_xml(const HaarCascade& c) {
    std::string out;
    out.reserve(256 + c.stages.size() * 64 + c.nodes.size() * 256);
    append_header(out, "haar", c.policy, c.window);
    append_stages(out, c.stages);
    append_haar_weaks(out, c);
    out += "</cascade_model>\n";
    return out;
}

void append_haar_weaks(std::string& out, const HaarCascade& c) {
    out += "  <weak_learners>\n";
    for (const HaarTree& t : c.weaks) {
        out += "    <tree";
        append_attr(out, "leaves", c.leaves.data() + t.first_leaf, t.node_count + 1);
        out += ">\n";
        for (int n = 0; n < t.node_count; ++n) append_node(out, c.nodes[static_cast<std::size_t>(t.first_node + n)]);
        out += "    </tree>\n";
    }
    out += "  </weak_learners>\n";
}

}  // namespace cascade
