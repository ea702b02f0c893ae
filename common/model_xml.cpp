// load_model / save_model (common/model_io.hpp): the project's XML format (docs/model-format.md) and, for
// reading, OpenCV's LBP cascades (common/opencv_cascade_xml.hpp).
#include <tinyxml2.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <iterator>
#include <limits>
#include <string>
#include <string_view>
#include <system_error>
#include <variant>
#include <vector>

#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "common/xml_fields.hpp"
#include "common/model_io.hpp"
#include "common/model_xml_parts.hpp"
#include "common/opencv_cascade_xml.hpp"
#include "common/packed_model.hpp"

namespace cascade {

using tinyxml2::XMLElement;
using tinyxml2::XMLNode;
using namespace xml;

// ---------------------------------------------------------------------------------------------------------
// Reading

// Format version 2 added the optional acceptance threshold `accept`.
void read_stages(const XMLElement& stages_el, long long version, std::vector<Stage>& stages,
                 const std::string& source) {
    only_attributes(stages_el, {}, source);
    for (const XMLElement* s = stages_el.FirstChildElement(); s; s = s->NextSiblingElement()) {
        if (std::strcmp(s->Name(), "stage") != 0)
            throw InputError(source, at(*s) + " is not allowed in <stages> (only <stage>)");
        if (version >= 2)
            only_attributes(*s, {"first", "count", "threshold", "accept"}, source);
        else
            only_attributes(*s, {"first", "count", "threshold"}, source);
        Stage stage;
        stage.first = int_attribute(*s, "first", source);
        stage.count = int_attribute(*s, "count", source);
        stage.threshold = float_attribute(*s, "threshold", source);
        if (s->Attribute("accept")) stage.accept = float_attribute(*s, "accept", source);
        stages.push_back(stage);
    }
}

namespace {

long long format_version(const XMLElement& root, const std::string& source) {
    const std::string_view version_text = attribute(root, "format_version", source);
    long long version = 0;
    if (!parse_number(version_text, version))
        throw InputError(source, "format version " + quoted(version_text) + " is not an integer");
    if (version > kModelFormatVersion)
        throw InputError(source, "format version " + std::to_string(version) +
                                     " is newer than this build supports (" + std::to_string(kModelFormatVersion) +
                                     ")");
    if (version < 1) throw InputError(source, "format version " + std::to_string(version) + " is invalid");
    return version;
}

SumPolicy sum_policy(const XMLElement& root, const std::string& source) {
    const std::string_view policy_text = attribute(root, "sum_policy", source);
    if (policy_text == "running") return SumPolicy::running;
    if (policy_text != "per_stage")
        throw InputError(source, "sum_policy " + quoted(policy_text) + " is not supported (per_stage or running)");
    return SumPolicy::per_stage;
}

Model read_own_format(const XMLElement& root, const std::string& source) {
    only_attributes(root, {"format_version", "kind", "sum_policy"}, source);
    const long long version = format_version(root, source);
    const std::string_view kind = attribute(root, "kind", source);
    if (kind != "lbp" && kind != "hog" && kind != "haar" && kind != "cov")
        throw InputError(source, "kind " + quoted(kind) + " is not supported (lbp, hog, haar or cov)");
    const SumPolicy policy = sum_policy(root, source);
    const bool lbp = kind == "lbp";

    const XMLElement* window = nullptr;
    const XMLElement* stages = nullptr;
    const XMLElement* weaks = nullptr;
    const XMLElement* responses = nullptr;
    const XMLElement* metadata = nullptr;
    const XMLElement* histogram_svm = nullptr;
    for (const XMLElement* e = root.FirstChildElement(); e; e = e->NextSiblingElement()) {
        const std::string_view name = e->Name();
        const XMLElement** slot = name == "window"          ? &window
                                  : name == "stages"        ? &stages
                                  : name == "weak_learners" ? &weaks
                                  : name == "responses"     ? &responses
                                  : name == "metadata"      ? &metadata
                                  : name == "histogram-svm" ? &histogram_svm
                                                            : nullptr;
        if (!slot || ((slot == &responses || slot == &histogram_svm) && !lbp))
            throw InputError(source, at(*e) + " is not allowed in a " + std::string(kind) + " model");
        if (*slot) throw InputError(source, at(*e) + " appears twice");
        *slot = e;
    }
    const auto require = [&](const XMLElement* e, const char* name) -> const XMLElement& {
        if (!e) throw InputError(source, at(root) + " has no <" + name + ">");
        return *e;
    };
    // <metadata> holds free key/value text (trainer, seed, date); this version reads past it.

    Size win;
    const XMLElement& window_el = require(window, "window");
    only_attributes(window_el, {"width", "height"}, source);
    win.width = int_attribute(window_el, "width", source);
    win.height = int_attribute(window_el, "height", source);

    Model model;
    model.source = source;
    const auto cascade_of = [&](auto c) {
        c.window = win;
        c.policy = policy;
        read_stages(require(stages, "stages"), version, c.stages, source);
        return c;
    };
    const auto weak_list = [&]() -> const XMLElement& {
        const XMLElement& list = require(weaks, "weak_learners");
        only_attributes(list, {}, source);
        return list;
    };
    if (kind == "lbp") {
        LbpCascade c = cascade_of(LbpCascade{});
        read_lbp_weaks(weak_list(), c, source);
        read_responses(require(responses, "responses"), c.responses, source);
        if (histogram_svm) c.final_svm = read_histogram_svm(*histogram_svm, version, source);
        validate(c, source);
        model.cascade = std::move(c);
    } else if (kind == "hog") {
        HogCascade c = cascade_of(HogCascade{});
        read_hog_weaks(weak_list(), version, c, source);
        validate(c, source);
        model.cascade = std::move(c);
    } else if (kind == "haar") {
        HaarCascade c = cascade_of(HaarCascade{});
        read_haar_weaks(weak_list(), c, source);
        validate(c, source);
        model.cascade = std::move(c);
    } else {
        if (version < 6) throw InputError(source, "kind cov needs format_version 6 or later");
        CovCascade c = cascade_of(CovCascade{});
        read_cov_weaks(weak_list(), version, c, source);
        validate(c, source);
        model.cascade = std::move(c);
    }
    return model;
}

std::string one_line(std::string s) {
    for (char& c : s)
        if (c == '\n' || c == '\r') c = ' ';
    return s;
}

Model parse_model(const std::string& text, const std::string& source) {
    if (trimmed(text).empty()) throw InputError(source, "empty file");
    tinyxml2::XMLDocument doc;
    if (doc.Parse(text.data(), text.size()) != tinyxml2::XML_SUCCESS)
        throw InputError(source, "not an XML file (" + one_line(doc.ErrorStr()) + ")");
    const XMLElement* root = doc.RootElement();
    if (!root) throw InputError(source, "not an XML file (no root element)");

    const std::string_view name = root->Name();
    if (name == "cascade_model") return read_own_format(*root, source);
    if (name == "opencv_storage") {
        Model model;
        model.source = source;
        if (is_opencv_haar(*root)) {
            HaarCascade c = haar_cascade_from_opencv_xml(*root, source);
            validate(c, source);
            model.cascade = std::move(c);
        } else {
            LbpCascade c = lbp_cascade_from_opencv_xml(*root, source);
            validate(c, source);
            model.cascade = std::move(c);
        }
        return model;
    }
    throw InputError(source, "not a cascade model (root element <" + std::string(name) + ">)");
}

}  // namespace

// ---------------------------------------------------------------------------------------------------------
// Writing

void append_stages(std::string& out, const std::vector<Stage>& stages) {
    out += "  <stages>\n";
    for (const Stage& s : stages) {
        out += "    <stage";
        append_attr(out, "first", static_cast<long long>(s.first));
        append_attr(out, "count", static_cast<long long>(s.count));
        append_attr(out, "threshold", s.threshold);
        if (s.accept != std::numeric_limits<float>::infinity()) append_attr(out, "accept", s.accept);
        out += "/>\n";
    }
    out += "  </stages>\n";
}

void append_header(std::string& out, const char* kind, SumPolicy policy, Size window) {
    out += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    out += "<!-- cascade-toolkit model; the format is described in docs/model-format.md -->\n";
    out += "<cascade_model format_version=\"" + std::to_string(kModelFormatVersion) + "\" kind=\"" + kind +
           "\" sum_policy=\"" + (policy == SumPolicy::running ? "running" : "per_stage") + "\">\n";
    out += "  <window";
    append_attr(out, "width", static_cast<long long>(window.width));
    append_attr(out, "height", static_cast<long long>(window.height));
    out += "/>\n";
}

std::string read_model_file(const std::string& path) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) throw InputError(path, "cannot open file (it is a directory)");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError(path, std::string("cannot open file (") + std::strerror(errno) + ")");
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.bad()) throw InputError(path, std::string("cannot read file (") + std::strerror(errno) + ")");
    return text;
}

Model load_model(const std::string& path) {
    const std::string text = read_model_file(path);
    const auto* bytes = reinterpret_cast<const std::uint8_t*>(text.data());
    if (is_packed_model(bytes, text.size())) return unpack_model(bytes, text.size(), path).model;
    return parse_model(text, path);
}

Model load_model_from_string(const std::string& xml, const std::string& name) { return parse_model(xml, name); }

std::string model_xml(const Model& model, const std::string& path) {
    // Never write what load_model would refuse.
    return std::visit(
        [&](const auto& c) {
            validate(c, path);
            return to_xml(c);
        },
        model.cascade);
}

void save_model(const Model& model, const std::string& path) { write_file_atomically(path, model_xml(model, path)); }

}  // namespace cascade
