// cascade-eval: measures cascades per window (DET) and per image (FPPI), writes JSON and PNG plots, composes
// a composite annotated test set (see --help and eval_options.cpp). Exit codes: 0 success, 2 bad usage, 1 bad
// input or any other failure; every failure is one line "cascade-eval: error: <option or file>: <problem>".
#include <cstdio>
#include <exception>
#include <iostream>
#include <sstream>
#include <string>

#include "bench/eval/curve_plot.hpp"
#include "bench/eval/detection_run.hpp"
#include "bench/eval/eval_options.hpp"
#include "bench/eval/keypoint_eval.hpp"
#include "bench/eval/opencv_hog.hpp"
#include "cli/number_text.hpp"
#include "cli/tool_main.hpp"
#include "common/error.hpp"
#include "common/model_io.hpp"
#include "data/annotations.hpp"
#include "data/crop_options.hpp"

namespace {

using namespace cascade;
using namespace cascade::eval;
using cli::percent_text;
using cli::real_text;

std::string joined(const std::vector<std::string>& items) {
    std::string out;
    for (const std::string& s : items) out += (out.empty() ? "" : " ") + s;
    return out;
}

std::string scan_text(const ScanParams& scan) {
    return "stride " + std::to_string(scan.rule.stride) + ", scale factor " + real_text(scan.pyramid.scale_factor) +
           (scan.pyramid.first_scale < 1.0 ? ", first scale " + real_text(scan.pyramid.first_scale) : "");
}

void add_scan_settings(const ScanParams& scan, ModelResult& r) {
    r.settings.emplace_back("stride", std::to_string(scan.rule.stride));
    r.settings.emplace_back("scale_factor", real_text(scan.pyramid.scale_factor));
    r.settings.emplace_back("first_scale", real_text(scan.pyramid.first_scale));
}

// One line per model: what a reader of the terminal wants without opening the JSON.
void print_summary(const EvalResult& result, std::ostream& out) {
    for (const ModelResult& m : result.models) {
        out << m.label << ": " << m.positives
            << (result.protocol == Protocol::window ? " positive windows, " : " boxes, ")
            << static_cast<long long>(m.units)
            << (result.protocol == Protocol::window ? " negative windows in " : " images")
            << (result.protocol == Protocol::window ? std::to_string(m.images) + " images" : std::string())
            << "; miss rate";
        for (const auto& [budget, miss] : m.miss_rate_at)
            out << " " << percent_text(miss) << " at " << real_text(budget);
        if (result.protocol == Protocol::image)
            out << "; log-average miss rate " << percent_text(m.log_average_miss_rate);
        if (!m.work_unit.empty()) out << "; " << real_text(m.work_per_window) << " " << m.work_unit << " per window";
        out << "\n";
    }
}

// All models first, so that a bad one stops the run before any long measurement.
std::vector<Model> load_models(const Labelled& choice) {
    std::vector<Model> models;
    for (const std::string& path : choice.files) models.push_back(load_model(path));
    return models;
}

void write_outputs(const EvalResult& result, const Outputs& outputs) {
    if (!outputs.plot.empty()) write_plot(result, outputs.plot);
    if (outputs.json.empty()) {
        std::cout << to_json(result);
        print_summary(result, std::cerr);
    } else {
        write_json(result, outputs.json);
        print_summary(result, std::cout);
    }
}

void run(const WindowCommand& c) {
    const std::vector<Model> models = load_models(c.models);
    const TestSet set = find_test_set(c.split);
    std::cerr << "window protocol: " << set.crops.size() << " positive crops, " << set.negative_images.size()
              << " negative images, " << scan_text(c.scan) << "\n";
    EvalResult result{Protocol::window, {}};
    const auto measure = [&](const WindowScorer& scorer, const std::string& label, const std::string& model) {
        ModelResult r = window_protocol(scorer, set, c.scan.threads);
        r.label = label;
        r.model = model;
        r.settings.insert(r.settings.end(), {{"pos", joined(c.split.positives)},
                                             {"neg", joined(c.split.negatives)},
                                             {"pos_holdout", real_text(c.split.pos_holdout)},
                                             {"neg_holdout", real_text(c.split.neg_holdout)},
                                             {"seed", std::to_string(c.split.seed)},
                                             {"group_by", data::group_by_name(c.split.group_by)},
                                             {"pos_margin", c.split.margin ? data::margin_text(*c.split.margin)
                                                                           : std::string("none")}});
        add_scan_settings(c.scan, r);
        result.models.push_back(std::move(r));
    };
    for (std::size_t i = 0; i < models.size(); ++i)
        measure(cascade_scorer(models[i], c.scan, c.split.margin), c.models.labels[i], c.models.files[i]);
    for (const HogReference reference : c.references)
        measure(opencv_hog_scorer(reference, c.scan), reference_label(reference), reference_name(reference));
    write_outputs(result, c.outputs);
}

const char* grouping_text(Grouping g) {
    switch (g) {
        case Grouping::opencv:
            return "opencv";
        case Grouping::nms:
            return "nms";
        case Grouping::mean_shift:
            return "meanshift";
        case Grouping::none:
            return "none";
    }
    return "?";
}

std::vector<data::AnnotatedImage> read_all_annotations(const std::vector<std::string>& sources) {
    std::vector<data::AnnotatedImage> images;
    for (const std::string& source : sources) {
        const std::vector<data::AnnotatedImage> found = data::read_annotations(source);
        images.insert(images.end(), found.begin(), found.end());
    }
    return images;
}

// cascade-detect runs scored as they are: the same matching and sweep as for a model.
void run_detections(const ImageCommand& c) {
    std::vector<DetectionRun> runs;  // all read and matched first: a bad one stops the run before any output
    for (const std::string& path : c.detections.files) runs.push_back(read_detection_run(path));
    const std::vector<data::AnnotatedImage> images = read_all_annotations(c.annotations);
    std::vector<RunOnImages> matched;
    for (const DetectionRun& run : runs) matched.push_back(detections_on(run, images));
    std::cerr << "image protocol: " << images.size() << " annotated images, the detections of " << runs.size()
              << " cascade-detect run(s), match at IoU >= " << real_text(c.params.min_iou) << "\n";
    EvalResult result{Protocol::image, {}};
    for (std::size_t i = 0; i < runs.size(); ++i) {
        std::cerr << runs[i].path << ": " << images.size() << " annotated images among its " << runs[i].files.size()
                  << " files (" << matched[i].by_name << " matched by file name only, " << matched[i].left_out
                  << " not annotated, left out)\n";
        ModelResult r = image_protocol(matched[i].detections, images, c.params.min_iou);
        r.label = c.detections.labels[i];
        r.model = runs[i].model;
        r.settings.emplace_back("detections", runs[i].path);
        r.settings.insert(r.settings.end(), runs[i].settings.begin(), runs[i].settings.end());
        r.settings.insert(r.settings.end(),
                          {{"annotations", joined(c.annotations)}, {"min_iou", real_text(c.params.min_iou)}});
        result.models.push_back(std::move(r));
    }
    write_outputs(result, c.outputs);
}

void run(const ImageCommand& c) {
    if (!c.detections.files.empty()) return run_detections(c);
    const std::vector<Model> models = load_models(c.models);
    const std::vector<data::AnnotatedImage> images = read_all_annotations(c.annotations);
    std::cerr << "image protocol: " << images.size() << " annotated images, " << scan_text(c.params.scan) << ", group "
              << grouping_text(c.params.grouping.method) << ", match at IoU >= " << real_text(c.params.min_iou) << "\n";
    EvalResult result{Protocol::image, {}};
    for (std::size_t i = 0; i < models.size(); ++i) {
        ModelResult r = image_protocol(models[i], images, c.params);
        r.label = c.models.labels[i];
        r.model = c.models.files[i];
        r.settings.insert(r.settings.end(), {{"annotations", joined(c.annotations)},
                                             {"group", grouping_text(c.params.grouping.method)},
                                             {"nms_iou", real_text(c.params.grouping.nms_iou)},
                                             {"min_neighbors", std::to_string(c.params.grouping.min_neighbors)},
                                             {"min_iou", real_text(c.params.min_iou)},
                                             {"swept_stages", std::to_string(c.params.swept_stages)}});
        add_scan_settings(c.params.scan, r);
        result.models.push_back(std::move(r));
    }
    write_outputs(result, c.outputs);
}

void run(const CompositeCommand& c) {
    const TestSet set = find_test_set(c.split);
    write_composite_set(set, c.params, c.folder);
    std::cout << "composite: " << c.params.images << " pictures from " << set.crops.size() << " crops and "
              << set.negative_images.size() << " backgrounds in " << c.folder << "/ (list: " << c.folder
              << "/annotations.lst)\n";
}

void run(const CompareCommand& c) {
    EvalResult all = read_json(c.results.front());
    for (std::size_t i = 1; i < c.results.size(); ++i) {
        EvalResult more = read_json(c.results[i]);
        if (more.protocol != all.protocol)
            throw InputError(c.results[i], std::string("holds a per-") + protocol_name(more.protocol) + " result; " +
                                               c.results.front() + " a per-" + protocol_name(all.protocol) + " one");
        for (ModelResult& m : more.models) all.models.push_back(std::move(m));
    }
    write_outputs(all, c.outputs);
}

}  // namespace

int main(int argc, char** argv) {
    return cli::run_tool("cascade-eval", [&] {
        if (argc > 1 && std::string(argv[1]) == "keypoints") return eval::run_keypoint_eval(argc - 1, argv + 1);
        const auto command = parse_command(argc, argv, std::cout);
        if (!command) return 0;
        std::visit([](const auto& c) { run(c); }, *command);
        return 0;
    });
}
