// A cov model in the project's XML format (docs/model-format.md):
//   <cov x y w h bias responses [cuts] slope [limit] [mapping="tangent" | descriptor="lbp-histogram" first-bin]>
//     <weights>36 floats</weights> [<mean_isqrt>64 floats</mean_isqrt>, tangent learners only]
//   </cov>
#include <tinyxml2.h>

#include <algorithm>
#include <cstring>
#include <iterator>
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

// The floats of child element <name> of `w`: exactly `count` of them.
void read_child_floats(const XMLElement& w, const char* name, float* out, int count, const std::string& source) {
    const XMLElement* e = w.FirstChildElement(name);
    if (!e) throw InputError(source, at(w) + " has no <" + name + ">");
    only_attributes(*e, {}, source);
    std::vector<float> values;
    read_floats(*e, values, source);
    if (values.size() != static_cast<std::size_t>(count))
        throw InputError(source, at(*e) + " holds " + std::to_string(values.size()) + " values, expected " +
                                     std::to_string(count));
    std::copy(values.begin(), values.end(), out);
}

// descriptor="lbp-histogram" (format version 10) with its first-bin, or neither: a covariance learner.
void read_cov_descriptor(const XMLElement& w, long long version, CovWeak& weak, const std::string& source) {
    const char* text = w.Attribute("descriptor");
    if (!text) {
        if (w.Attribute("first-bin"))
            throw InputError(source, at(w) + ": first-bin belongs to descriptor=\"lbp-histogram\" learners only");
        return;
    }
    if (std::strcmp(text, "lbp-histogram") != 0)
        throw InputError(source, at(w) + ": descriptor " + quoted(text) + " is not supported (lbp-histogram or none)");
    if (version < 10) throw InputError(source, at(w) + ": descriptor lbp-histogram needs format_version 10 or later");
    weak.descriptor = kCovDescriptorLbpHistogram;
    weak.first_bin = int_attribute(w, "first-bin", source);
}

CovWeak read_cov_weak(const XMLElement& w, long long version, const std::string& source) {
    only_attributes(w, {"x", "y", "w", "h", "bias", "cuts", "responses", "slope", "limit", "mapping", "descriptor",
                        "first-bin"},
                    source);
    CovWeak weak;
    read_cov_descriptor(w, version, weak, source);
    weak.rect = {int_attribute(w, "x", source), int_attribute(w, "y", source), int_attribute(w, "w", source),
                 int_attribute(w, "h", source)};
    weak.bias = float_attribute(w, "bias", source);
    const std::vector<float> cuts =
        w.Attribute("cuts") ? float_list_attribute(w, "cuts", 1, kHogMaxBins - 1, source) : std::vector<float>{};
    const std::vector<float> responses = float_list_attribute(w, "responses", 1, kHogMaxBins, source);
    if (responses.size() != cuts.size() + 1)
        throw InputError(source, at(w) + " has " + std::to_string(cuts.size()) + " cuts and " +
                                     std::to_string(responses.size()) + " responses (one more than cuts needed)");
    weak.num_cuts = static_cast<std::int32_t>(cuts.size());
    std::copy(cuts.begin(), cuts.end(), weak.cuts);
    std::copy(responses.begin(), responses.end(), weak.responses);
    weak.slope = float_attribute(w, "slope", source);
    if (w.Attribute("limit")) weak.limit = float_attribute(w, "limit", source);
    if (const char* mapping = w.Attribute("mapping")) {
        if (std::strcmp(mapping, "tangent") != 0 && std::strcmp(mapping, "log-euclidean") != 0)
            throw InputError(source, at(w) + ": mapping " + quoted(mapping) + " is not supported (log-euclidean or tangent)");
        if (std::strcmp(mapping, "tangent") == 0) weak.mapping = kCovTangent;
    }
    for (const XMLElement* e = w.FirstChildElement(); e; e = e->NextSiblingElement()) {
        const bool known = std::strcmp(e->Name(), "weights") == 0 ||
                           (std::strcmp(e->Name(), "mean_isqrt") == 0 && weak.mapping == kCovTangent);
        if (!known) throw InputError(source, at(*e) + " is not allowed in this <cov>");
    }
    read_child_floats(w, "weights", weak.weights, kCovDims, source);
    if (weak.mapping == kCovTangent)
        read_child_floats(w, "mean_isqrt", weak.mean_isqrt, kCovFeatures * kCovFeatures, source);
    return weak;
}

void append_floats(std::string& out, const char* name, const float* values, int count) {
    out += std::string("      <") + name + ">";
    for (int k = 0; k < count; ++k) {
        if (k > 0) out += ' ';
        append_float(out, values[k]);
    }
    out += std::string("</") + name + ">\n";
}

}  // namespace

void read_cov_weaks(const XMLElement& list, long long version, CovCascade& c, const std::string& source) {
    for (const XMLElement* w = list.FirstChildElement(); w; w = w->NextSiblingElement()) {
        if (std::strcmp(w->Name(), "cov") != 0)
            throw InputError(source, at(*w) + " is not allowed in the <weak_learners> of a cov model");
        c.weaks.push_back(read_cov_weak(*w, version, source));
    }
}

std::string to_xml(const CovCascade& c) {
    std::string out;
    out.reserve(256 + c.stages.size() * 64 + c.weaks.size() * (kCovDims + 8) * 16);
    append_header(out, "cov", c.policy, c.window);
    append_stages(out, c.stages);
    out += "  <weak_learners>\n";
    for (const CovWeak& w : c.weaks) {
        out += "    <cov";
        append_attr(out, "x", static_cast<long long>(w.rect.x));
        append_attr(out, "y", static_cast<long long>(w.rect.y));
        append_attr(out, "w", static_cast<long long>(w.rect.width));
        append_attr(out, "h", static_cast<long long>(w.rect.height));
        append_attr(out, "bias", w.bias);
        if (w.num_cuts > 0) append_attr(out, "cuts", w.cuts, w.num_cuts);
        append_attr(out, "responses", w.responses, w.num_cuts + 1);
        append_attr(out, "slope", w.slope);
        if (w.limit != std::numeric_limits<float>::infinity()) append_attr(out, "limit", w.limit);
        if (w.mapping == kCovTangent) out += " mapping=\"tangent\"";
        if (w.descriptor == kCovDescriptorLbpHistogram) {
            out += " descriptor=\"lbp-histogram\"";
            append_attr(out, "first-bin", static_cast<long long>(w.first_bin));
        }
        out += ">\n";
        append_floats(out, "weights", w.weights, kCovDims);
        if (w.mapping == kCovTangent) append_floats(out, "mean_isqrt", w.mean_isqrt, kCovFeatures * kCovFeatures);
        out += "    </cov>\n";
    }
    out += "  </weak_learners>\n</cascade_model>\n";
    return out;
}

}  // namespace cascade
