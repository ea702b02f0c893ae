// The parts of the project's XML model format (docs/model-format.md) that only kind lbp has: <lbp> weak
// learners, <responses> and the optional final <histogram-svm> (format version 9).
#include <cstring>
#include <limits>
#include <string>

#include "common/error.hpp"
#include "common/lbp_uniform.hpp"
#include "common/model_xml_parts.hpp"
#include "common/xml_fields.hpp"

namespace cascade {

using tinyxml2::XMLElement;
using namespace xml;

void read_lbp_weaks(const XMLElement& list, LbpCascade& c, const std::string& source) {
    for (const XMLElement* w = list.FirstChildElement(); w; w = w->NextSiblingElement()) {
        if (std::strcmp(w->Name(), "lbp") != 0)
            throw InputError(source, at(*w) + " is not allowed in the <weak_learners> of an lbp model");
        only_attributes(*w, {"x", "y", "w", "h", "table"}, source);
        LbpWeak weak;
        weak.feature.x = short_attribute(*w, "x", source);
        weak.feature.y = short_attribute(*w, "y", source);
        weak.feature.width = short_attribute(*w, "w", source);
        weak.feature.height = short_attribute(*w, "h", source);
        weak.table = int_attribute(*w, "table", source);
        c.weaks.push_back(weak);
    }
}

void read_responses(const XMLElement& e, std::vector<float>& responses, const std::string& source) {
    only_attributes(e, {"count"}, source);
    const long long count = int_attribute(e, "count", 0, std::numeric_limits<int>::max(), source);
    read_floats(e, responses, source);
    if (responses.size() != static_cast<std::size_t>(count))
        throw InputError(source, at(e) + " holds " + std::to_string(responses.size()) + " values but count=\"" +
                                     std::to_string(count) + "\"");
}

LbpHistogramSvm read_histogram_svm(const XMLElement& e, long long version, const std::string& source) {
    if (version < 9) throw InputError(source, at(e) + " needs format_version 9 or later");
    only_attributes(e, {"cell", "step", "cells_x", "cells_y", "norm", "bias", "threshold"}, source);
    if (attribute(e, "norm", source) != "l1-sqrt")
        throw InputError(source, at(e) + ": norm " + quoted(attribute(e, "norm", source)) + " is not supported (l1-sqrt)");
    LbpHistogramSvm svm;
    svm.cell = int_attribute(e, "cell", source);
    svm.step = int_attribute(e, "step", source);
    svm.cells_x = int_attribute(e, "cells_x", source);
    svm.cells_y = int_attribute(e, "cells_y", source);
    svm.bias = float_attribute(e, "bias", source);
    svm.threshold = float_attribute(e, "threshold", source);
    read_floats(e, svm.weights, source);
    return svm;  // validate() checks the cells against the window and the weights' count
}

namespace {

// One cell's 59 weights a line.
void append_histogram_svm(std::string& out, const LbpHistogramSvm& svm) {
    out += "  <histogram-svm";
    append_attr(out, "cell", static_cast<long long>(svm.cell));
    append_attr(out, "step", static_cast<long long>(svm.step));
    append_attr(out, "cells_x", static_cast<long long>(svm.cells_x));
    append_attr(out, "cells_y", static_cast<long long>(svm.cells_y));
    out += " norm=\"l1-sqrt\"";
    append_attr(out, "bias", svm.bias);
    append_attr(out, "threshold", svm.threshold);
    out += ">";
    for (std::size_t i = 0; i < svm.weights.size(); ++i) {
        out += i % kLbpUniformBins == 0 ? "\n    " : " ";
        append_float(out, svm.weights[i]);
    }
    out += "\n  </histogram-svm>\n";
}

}  // namespace

std::string to_xml(const LbpCascade& c) {
    std::string out;
    out.reserve(256 + c.stages.size() * 64 + c.weaks.size() * 64 + c.responses.size() * 16);
    append_header(out, "lbp", c.policy, c.window);
    append_stages(out, c.stages);
    out += "  <weak_learners>\n";
    for (const LbpWeak& w : c.weaks) {
        out += "    <lbp";
        append_attr(out, "x", static_cast<long long>(w.feature.x));
        append_attr(out, "y", static_cast<long long>(w.feature.y));
        append_attr(out, "w", static_cast<long long>(w.feature.width));
        append_attr(out, "h", static_cast<long long>(w.feature.height));
        append_attr(out, "table", static_cast<long long>(w.table));
        out += "/>\n";
    }
    out += "  </weak_learners>\n";
    out += "  <responses count=\"" + std::to_string(c.responses.size()) + "\">";
    constexpr std::size_t kPerLine = 16;  // a 256-entry table is 16 lines
    for (std::size_t i = 0; i < c.responses.size(); ++i) {
        out += i % kPerLine == 0 ? "\n    " : " ";
        append_float(out, c.responses[i]);
    }
    out += "\n  </responses>\n";
    if (c.final_svm) append_histogram_svm(out, *c.final_svm);
    out += "</cascade_model>\n";
    return out;
}

}  // namespace cascade
