#include "bench/eval/detection_run.hpp"

#include <climits>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unordered_map>

#include "cli/json.hpp"
#include "common/error.hpp"

namespace fs = std::filesystem;

namespace cascade::eval {

using cli::Json;
using cli::JsonError;
using cli::parse_json;

namespace {

Json parse_file(const std::string& path) {
    if (!fs::is_regular_file(path)) throw InputError(path, "no such file (give cascade-detect's --output RUN.json)");
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    if (!in) throw InputError(path, "cannot read the file");
    try {
        return parse_json(text.str());
    } catch (const JsonError& e) {
        const bool csv = fs::path(path).extension() == ".csv";
        const std::string hint = csv ? " (CSV does not list the images read: use cascade-detect's JSON)" : "";
        throw InputError(path, std::string("is not valid JSON: ") + e.what() + hint);
    }
}

std::string number_text(double value) {
    char text[40];
    std::snprintf(text, sizeof text, "%.9g", value);
    return text;
}

// A setting as cascade-eval writes it: strings as they are, numbers, null as "none", sizes as WxH.
std::string setting_text(const Json& v, const std::string& path, const std::string& where) {
    if (v.kind == Json::Kind::string) return v.text;
    if (v.kind == Json::Kind::number) return number_text(v.number);
    if (v.kind == Json::Kind::null) return "none";
    const Json* w = v.find("width");
    const Json* h = v.find("height");
    if (v.fields.size() == 2 && w && h && w->kind == Json::Kind::number && h->kind == Json::Kind::number)
        return number_text(w->number) + "x" + number_text(h->number);
    throw InputError(path, where + " is not a string, a number, null or {\"width\", \"height\"}");
}

void read_settings(const Json& root, const std::string& path, DetectionRun& run) {
    if (const Json* backend = root.find("backend"))
        run.settings.emplace_back("backend", setting_text(*backend, path, "\"backend\""));
    for (const auto& [group, prefix] : {std::pair{"gpu", "gpu_"}, std::pair{"parameters", ""}}) {
        const Json* values = root.find(group);
        if (!values) continue;
        if (values->kind != Json::Kind::object)
            throw InputError(path, std::string("\"") + group + "\" is not an object");
        for (const auto& [name, value] : values->fields)
            run.settings.emplace_back(prefix + name, setting_text(value, path, group + ("." + name)));
    }
}

int integer_field(const Json& object, const char* key, int min, const std::string& path, const std::string& where) {
    const Json* v = object.find(key);
    if (!v || v->kind != Json::Kind::number || v->number != std::floor(v->number) || v->number < min ||
        v->number > INT_MAX) {
        const std::string what = min == 1 ? "a positive integer" : min == 0 ? "an integer >= 0" : "an integer";
        throw InputError(path, where + "." + key + " is missing or not " + what);
    }
    return static_cast<int>(v->number);
}

std::string normal_path(const std::string& p) {
    std::error_code error;
    const fs::path canonical = fs::weakly_canonical(p, error);
    return error ? fs::absolute(p).lexically_normal().string() : canonical.string();
}

std::string name_of(const std::string& p) { return fs::path(p).filename().string(); }

}  // namespace

DetectionRun read_detection_run(const std::string& path) {
    const Json root = parse_file(path);
    if (root.kind != Json::Kind::object) throw InputError(path, "is not a JSON object (cascade-detect's output)");
    DetectionRun run;
    run.path = path;
    if (const Json* model = root.find("model")) run.model = setting_text(*model, path, "\"model\"");
    read_settings(root, path, run);

    const Json* files = root.find("files");
    if (!files || files->kind != Json::Kind::array)
        throw InputError(path, "has no \"files\" array of the images the run read (cascade-detect writes one)");
    std::unordered_map<std::string, std::size_t> index;
    for (const Json& file : files->items) {
        const std::string where = "files[" + std::to_string(run.files.size()) + "]";
        if (file.kind != Json::Kind::string || file.text.empty())
            throw InputError(path, where + " is not a file name");
        if (!index.emplace(file.text, run.files.size()).second)
            throw InputError(path, where + ": the run read '" + file.text + "' twice");
        run.files.push_back(file.text);
    }
    run.detections.resize(run.files.size());

    const Json* detections = root.find("detections");
    if (!detections || detections->kind != Json::Kind::array)
        throw InputError(path, "has no \"detections\" array");
    for (std::size_t k = 0; k < detections->items.size(); ++k) {
        const Json& d = detections->items[k];
        const std::string where = "detections[" + std::to_string(k) + "]";
        if (d.kind != Json::Kind::object) throw InputError(path, where + " is not an object");
        const Json* file = d.find("file");
        if (!file || file->kind != Json::Kind::string)
            throw InputError(path, where + ".file is missing or not a string");
        const auto found = index.find(file->text);
        if (found == index.end())
            throw InputError(path, where + ".file '" + file->text + "' is not among \"files\"");
        integer_field(d, "frame", 0, path, where);
        const Rect rect{integer_field(d, "x", INT_MIN, path, where), integer_field(d, "y", INT_MIN, path, where),
                        integer_field(d, "w", 1, path, where), integer_field(d, "h", 1, path, where)};
        const Json* score = d.find("score");
        if (!score || score->kind != Json::Kind::number || !std::isfinite(static_cast<float>(score->number)))
            throw InputError(path, where + ".score is missing or not a finite number");
        run.detections[found->second].push_back({rect, static_cast<float>(score->number)});
    }
    return run;
}

RunOnImages detections_on(const DetectionRun& run, const std::vector<data::AnnotatedImage>& images) {
    constexpr std::size_t kNone = static_cast<std::size_t>(-1);
    std::vector<std::size_t> file_of(images.size(), kNone);
    std::vector<bool> used(run.files.size(), false);

    // 1. The same path (several annotations of one image all get its detections, as with --model).
    std::unordered_map<std::string, std::size_t> by_path;
    for (std::size_t f = 0; f < run.files.size(); ++f) {
        const auto [at, added] = by_path.emplace(normal_path(run.files[f]), f);
        if (!added)
            throw InputError(run.path, "the run read one image twice, as '" + run.files[at->second] + "' and '" +
                                           run.files[f] + "'");
    }
    for (std::size_t i = 0; i < images.size(); ++i) {
        const auto found = by_path.find(normal_path(images[i].path));
        if (found == by_path.end()) continue;
        file_of[i] = found->second;
        used[found->second] = true;
    }

    // 2. The same file name, where it is unique among what is left on both sides.
    std::unordered_map<std::string, std::vector<std::size_t>> files_named, images_named;
    for (std::size_t f = 0; f < run.files.size(); ++f)
        if (!used[f]) files_named[name_of(run.files[f])].push_back(f);
    for (std::size_t i = 0; i < images.size(); ++i)
        if (file_of[i] == kNone) images_named[name_of(images[i].path)].push_back(i);
    RunOnImages out;
    std::size_t missing = 0, first_missing = 0;
    for (std::size_t i = 0; i < images.size(); ++i) {
        if (file_of[i] != kNone) continue;
        const std::string name = name_of(images[i].path);
        const std::vector<std::size_t>& candidates = files_named[name];
        if (candidates.size() == 1 && images_named[name].size() == 1) {
            file_of[i] = candidates.front();
            used[candidates.front()] = true;
            ++out.by_name;
        } else if (missing++ == 0) {
            first_missing = i;
        }
    }
    if (missing > 0) {
        const std::string name = name_of(images[first_missing].path);
        const std::size_t same_name = files_named[name].size();
        throw InputError(run.path, "the run did not read " + std::to_string(missing) + " of the " +
                                       std::to_string(images.size()) + " annotated images, e.g. '" +
                                       images[first_missing].path + "' (" +
                                       (same_name > 0 ? std::to_string(same_name) + " of its files and " +
                                                            std::to_string(images_named[name].size()) +
                                                            " annotated images are named '" + name + "'"
                                                      : "no file of the run has its path or name") +
                                       "); run cascade-detect on every annotated image");
    }
    for (const bool u : used) out.left_out += u ? 0 : 1;
    out.detections.reserve(images.size());
    for (const std::size_t f : file_of) out.detections.push_back(run.detections[f]);
    return out;
}

}  // namespace cascade::eval
