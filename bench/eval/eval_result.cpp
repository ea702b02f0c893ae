#include "bench/eval/eval_result.hpp"

#include <cstdio>
#include <opencv2/core.hpp>
#include <sstream>

#include "cli/json.hpp"
#include "common/atomic_file.hpp"
#include "common/error.hpp"

namespace cascade::eval {

using cli::json_quoted;

namespace {

std::string number(double value) {
    char text[40];
    std::snprintf(text, sizeof text, "%.9g", value);
    return text;
}

void write_model(std::ostringstream& out, const ModelResult& m) {
    out << "    {\"label\": " << json_quoted(m.label) << ", \"model\": " << json_quoted(m.model)
        << ",\n     \"settings\": {";
    for (std::size_t i = 0; i < m.settings.size(); ++i)
        out << (i ? ", " : "") << json_quoted(m.settings[i].first) << ": " << json_quoted(m.settings[i].second);
    out << "},\n     \"positives\": " << m.positives << ", \"units\": " << number(m.units)
        << ", \"images\": " << m.images << ",\n     \"miss_rate_at\": [";
    for (std::size_t i = 0; i < m.miss_rate_at.size(); ++i)
        out << (i ? ", " : "") << "{\"false_positives\": " << number(m.miss_rate_at[i].first)
            << ", \"miss_rate\": " << number(m.miss_rate_at[i].second) << "}";
    out << "],\n";
    if (m.log_average_miss_rate >= 0.0)
        out << "     \"log_average_miss_rate\": " << number(m.log_average_miss_rate) << ",\n";
    if (!m.work_unit.empty())
        out << "     \"work_per_window\": " << number(m.work_per_window) << ", \"work_unit\": " << json_quoted(m.work_unit)
            << ",\n";
    out << "     \"curve\": [";
    for (std::size_t i = 0; i < m.curve.size(); ++i)
        out << (i ? ",\n       " : "") << "[" << number(m.curve[i].false_positives) << ", "
            << number(m.curve[i].miss_rate) << ", " << number(m.curve[i].threshold) << "]";
    out << "]}";
}

double real_of(const cv::FileNode& node, const std::string& path, const char* what) {
    if (!node.isReal() && !node.isInt())
        throw InputError(path, std::string("'") + what + "' is missing or not a number");
    return static_cast<double>(node);
}

}  // namespace

const char* protocol_name(Protocol p) { return p == Protocol::window ? "window" : "image"; }

std::vector<double> reported_budgets(Protocol p) {
    return p == Protocol::window ? std::vector<double>{1e-4, 1e-5} : std::vector<double>{1e-2, 1e-1, 1.0};
}

void summarise(Protocol p, std::vector<double> hit_scores, std::vector<ScoreCount> false_alarms, ModelResult& r) {
    r.curve = miss_rate_curve(std::move(hit_scores), r.positives, std::move(false_alarms), r.units);
    r.miss_rate_at.clear();
    for (const double budget : reported_budgets(p)) r.miss_rate_at.emplace_back(budget, miss_rate_at(r.curve, budget));
    r.log_average_miss_rate = p == Protocol::image ? log_average_miss_rate(r.curve) : -1.0;
}

std::string to_json(const EvalResult& result) {
    std::ostringstream out;
    out << "{\"tool\": \"cascade-eval\", \"protocol\": \"" << protocol_name(result.protocol)
        << "\",\n  \"models\": [\n";
    for (std::size_t i = 0; i < result.models.size(); ++i) {
        if (i) out << ",\n";
        write_model(out, result.models[i]);
    }
    out << "\n  ]}\n";
    return out.str();
}

void write_json(const EvalResult& result, const std::string& path) { write_file_atomically(path, to_json(result)); }

EvalResult read_json(const std::string& path) {
    cv::FileStorage fs;
    try {
        if (!fs.open(path, cv::FileStorage::READ | cv::FileStorage::FORMAT_JSON)) throw InputError(path, "cannot open");
    } catch (const cv::Exception&) {
        throw InputError(path, "is not valid JSON");
    }
    const cv::FileNode root = fs.root();
    if (root["tool"].empty() || static_cast<std::string>(root["tool"]) != "cascade-eval")
        throw InputError(path, "is not a cascade-eval result (no \"tool\": \"cascade-eval\")");
    EvalResult result;
    const std::string protocol = static_cast<std::string>(root["protocol"]);
    if (protocol == "window")
        result.protocol = Protocol::window;
    else if (protocol == "image")
        result.protocol = Protocol::image;
    else
        throw InputError(path, "unknown protocol '" + protocol + "'");
    const cv::FileNode models = root["models"];
    if (!models.isSeq() || models.size() == 0) throw InputError(path, "has no models");
    for (const cv::FileNode& node : models) {
        ModelResult m;
        m.label = static_cast<std::string>(node["label"]);
        m.model = static_cast<std::string>(node["model"]);
        for (const cv::FileNode& s : node["settings"]) m.settings.emplace_back(s.name(), static_cast<std::string>(s));
        m.positives = static_cast<int>(real_of(node["positives"], path, "positives"));
        m.units = real_of(node["units"], path, "units");
        m.images = static_cast<int>(real_of(node["images"], path, "images"));
        for (const cv::FileNode& at : node["miss_rate_at"])
            m.miss_rate_at.emplace_back(real_of(at["false_positives"], path, "false_positives"),
                                        real_of(at["miss_rate"], path, "miss_rate"));
        if (!node["log_average_miss_rate"].empty())
            m.log_average_miss_rate = real_of(node["log_average_miss_rate"], path, "log_average_miss_rate");
        if (!node["work_unit"].empty()) {
            m.work_unit = static_cast<std::string>(node["work_unit"]);
            m.work_per_window = real_of(node["work_per_window"], path, "work_per_window");
        }
        for (const cv::FileNode& p : node["curve"]) {
            if (!p.isSeq() || p.size() != 3)
                throw InputError(path, "a curve point is not [false positives, miss rate, threshold]");
            m.curve.push_back({real_of(p[2], path, "threshold"), real_of(p[0], path, "false positives"),
                               real_of(p[1], path, "miss rate")});
        }
        result.models.push_back(std::move(m));
    }
    return result;
}

}  // namespace cascade::eval
