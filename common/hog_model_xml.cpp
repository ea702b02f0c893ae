// The HoG kind of the project's XML model format (docs/model-format.md):
//   <hog x y w h bias (vote | cuts responses [slope]) [descriptor [first-bin]]>36 floats</hog>
#include <tinyxml2.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "common/model_xml_parts.hpp"
#include "common/xml_fields.hpp"

namespace cascade {

using tinyxml2::XMLElement;
using namespace xml;

namespace {

// The response of a <hog>: vote="v" (any version), or cuts="..." responses="..." [slope="s"] (version 3).
void read_hog_response(const XMLElement& w, long long version, HogWeak& weak, const std::string& source) {
    if (version < 3) only_attributes(w, {"x", "y", "w", "h", "bias", "vote"}, source);
    if (w.Attribute("vote") || version < 3) {
        if (w.Attribute("cuts") || w.Attribute("responses") || w.Attribute("slope"))
            throw InputError(source, at(w) + " has both vote and cuts/responses/slope");
        set_vote(weak, float_attribute(w, "vote", source));
        return;
    }
    const std::vector<float> cuts = float_list_attribute(w, "cuts", 0, kHogMaxBins - 1, source);
    const std::vector<float> responses = float_list_attribute(w, "responses", 1, kHogMaxBins, source);
    if (responses.size() != cuts.size() + 1)
        throw InputError(source, at(w) + " has " + std::to_string(cuts.size()) + " cuts and " +
                                     std::to_string(responses.size()) + " responses (one more than cuts needed)");
    weak.num_cuts = static_cast<int>(cuts.size());
    std::fill(std::begin(weak.cuts), std::end(weak.cuts), 0.f);
    std::fill(std::begin(weak.responses), std::end(weak.responses), 0.f);
    std::copy(cuts.begin(), cuts.end(), weak.cuts);
    std::copy(responses.begin(), responses.end(), weak.responses);
    weak.slope = w.Attribute("slope") ? float_attribute(w, "slope", source) : 0.f;
}

// descriptor="dalal-triggs" (version 5), "dalal-triggs-gamma" (version 7), "lbp-histogram" (version 8) or none:
// the integral-histogram block.
std::int32_t read_hog_descriptor(const XMLElement& w, long long version, const std::string& source) {
    const char* text = w.Attribute("descriptor");
    if (!text) return kHogDescriptorIntegral;
    if (version < 5) throw InputError(source, at(w) + ": descriptor needs format_version 5 or later");
    if (std::strcmp(text, "dalal-triggs") == 0) return kHogDescriptorDalalTriggs;
    const bool gamma = std::strcmp(text, "dalal-triggs-gamma") == 0, lbp = std::strcmp(text, "lbp-histogram") == 0;
    if (!gamma && !lbp)
        throw InputError(source, at(w) + ": descriptor " + quoted(text) +
                                     " is not supported (dalal-triggs, dalal-triggs-gamma, lbp-histogram)");
    const int needs = gamma ? 7 : 8;
    if (version < needs)
        throw InputError(source, at(w) + ": descriptor " + text + " needs format_version " + std::to_string(needs) +
                                     " or later");
    return gamma ? kHogDescriptorDalalTriggsGamma : kHogDescriptorLbpHistogram;
}

// vote="v" for a discrete learner (the format of every version), else cuts, responses and a non-zero slope.
void append_hog_response(std::string& out, const HogWeak& w) {
    if (is_vote(w)) return append_attr(out, "vote", w.responses[1]);
    append_attr(out, "cuts", w.cuts, w.num_cuts);
    append_attr(out, "responses", w.responses, w.num_cuts + 1);
    if (w.slope != 0.f || std::signbit(w.slope)) append_attr(out, "slope", w.slope);  // -0 too: same bits back
}

}  // namespace

void read_hog_weaks(const XMLElement& list, long long version, HogCascade& c, const std::string& source) {
    std::vector<float> weights;
    for (const XMLElement* w = list.FirstChildElement(); w; w = w->NextSiblingElement()) {
        if (std::strcmp(w->Name(), "hog") != 0)
            throw InputError(source, at(*w) + " is not allowed in the <weak_learners> of a hog model");
        only_attributes(*w, {"x", "y", "w", "h", "bias", "vote", "cuts", "responses", "slope", "descriptor", "first-bin"},
                        source);
        HogWeak weak;
        weak.descriptor = read_hog_descriptor(*w, version, source);
        if (w->Attribute("first-bin")) {
            if (weak.descriptor != kHogDescriptorLbpHistogram)
                throw InputError(source, at(*w) + ": first-bin belongs to descriptor=\"lbp-histogram\" learners only");
            weak.first_bin = int_attribute(*w, "first-bin", source);
        }
        weak.block.x = int_attribute(*w, "x", source);
        weak.block.y = int_attribute(*w, "y", source);
        weak.block.width = int_attribute(*w, "w", source);
        weak.block.height = int_attribute(*w, "h", source);
        weak.bias = float_attribute(*w, "bias", source);
        read_hog_response(*w, version, weak, source);
        weights.clear();
        read_floats(*w, weights, source);
        if (weights.size() != static_cast<std::size_t>(kHogBlockDims))
            throw InputError(source, at(*w) + " holds " + std::to_string(weights.size()) + " weights, expected " +
                                         std::to_string(kHogBlockDims));
        std::copy(weights.begin(), weights.end(), weak.weights);
        c.weaks.push_back(weak);
    }
}

std::string to_xml(const HogCascade& c) {
    std::string out;
    out.reserve(256 + c.stages.size() * 64 + c.weaks.size() * (kHogBlockDims + 2) * 16);
    append_header(out, "hog", c.policy, c.window);
    append_stages(out, c.stages);
    out += "  <weak_learners>\n";
    for (const HogWeak& w : c.weaks) {
        out += "    <hog";
        append_attr(out, "x", static_cast<long long>(w.block.x));
        append_attr(out, "y", static_cast<long long>(w.block.y));
        append_attr(out, "w", static_cast<long long>(w.block.width));
        append_attr(out, "h", static_cast<long long>(w.block.height));
        append_attr(out, "bias", w.bias);
        append_hog_response(out, w);
        if (w.descriptor == kHogDescriptorDalalTriggs) out += " descriptor=\"dalal-triggs\"";
        if (w.descriptor == kHogDescriptorDalalTriggsGamma) out += " descriptor=\"dalal-triggs-gamma\"";
        if (w.descriptor == kHogDescriptorLbpHistogram) {
            out += " descriptor=\"lbp-histogram\"";
            append_attr(out, "first-bin", static_cast<long long>(w.first_bin));
        }
        out += ">";
        for (int k = 0; k < kHogBlockDims; ++k) {
            if (k > 0) out += ' ';
            append_float(out, w.weights[k]);
        }
        out += "</hog>\n";
    }
    out += "  </weak_learners>\n</cascade_model>\n";
    return out;
}

}  // namespace cascade
