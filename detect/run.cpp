#include "detect/run.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "cli/output_paths.hpp"
#include "cli/tool_main.hpp"
#include "cli/usage_error.hpp"
#include "common/error.hpp"
#include "detect/annotate.hpp"
#include "detect/detector.hpp"
#include "detect/frame_prefetch.hpp"
#include "detect/frames.hpp"
#include "detect/inputs.hpp"
#include "detect/model_source.hpp"
#include "detect/outputs.hpp"
#include "detect/progress.hpp"

namespace cascade::detect {

using cli::UsageError;

namespace {

void check_annotate_video(const Options& options, const std::vector<Source>& sources) {
    if (options.annotate_video.empty()) return;
    const auto videos = std::count_if(sources.begin(), sources.end(), [](const Source& s) { return s.video; });
    if (videos == 0) throw UsageError("--annotate-video", "needs a video input (.avi .mp4 .mkv .mov .webm); none given");
    if (videos > 1)
        throw UsageError("--annotate-video", "needs exactly one video input; " + std::to_string(videos) + " given");
}

// --skip-bad still fails a run that read nothing: an empty report would look like a run without detections.
void check_something_read(const Report& report) {
    if (report.frames > 0 || report.skipped.empty()) return;
    const Skipped& first = report.skipped.front();
    throw InputError(first.file, first.reason + " (--skip-bad: none of the " +
                                     std::to_string(report.skipped.size()) + " inputs could be read)");
}

// The files a run writes must not be what it reads: an image or video, a list file, the model.
void check_outputs_are_not_inputs(const Options& options, const std::vector<Source>& sources) {
    std::vector<std::string> inputs;
    for (const Source& s : sources) inputs.push_back(s.path);
    for (const std::string& a : options.inputs) inputs.push_back(a.rfind('@', 0) == 0 ? a.substr(1) : a);
    if (options.model) inputs.push_back(*options.model);
    cli::check_not_an_input("--output", options.output, inputs);
    cli::check_not_an_input("--annotate-video", options.annotate_video, inputs);
}

}  // namespace

void run(const Options& options) {
    const auto start = std::chrono::steady_clock::now();
    const PackedModel model = load_detection_model(options.model);
    const Detector detector(model, options);
    const std::vector<Source> sources = expand_inputs(options.inputs, options.skip_bad);
    check_annotate_video(options, sources);
    check_outputs_are_not_inputs(options, sources);
    Annotator annotator(options);
    annotator.check_names(sources);

    const VideoLimits limits{options.every, options.max_frames};
    const bool several = sources.size() > 1 || std::any_of(sources.begin(), sources.end(), [](const Source& s) { return s.video; });
    const bool show_bar = several && progress_wanted(options.quiet, options.progress);
    Progress progress(show_bar, show_bar ? FrameReader::expected_frames(sources, limits) : 0);
    FramePrefetch reader(sources, limits, {detector.window(), options.skip_bad}, [&](const std::string& subject, const std::string& problem) {
        if (!options.quiet) progress.note(cli::printable("cascade-detect: warning: " + subject + ": " + problem));
    });

    Report report;
    report.model = model.model.source;
    report.model_window = detector.window();
    Frame frame;
    while (reader.next(frame)) {
        if (!frame.skipped.empty()) {
            if (!options.quiet) progress.note(cli::printable("cascade-detect: warning: " + frame.file + ": skipped: " + frame.skipped));
            report.skipped.push_back({frame.file, frame.skipped});
            progress.advance(report.frames + static_cast<long>(report.skipped.size()));
            continue;
        }
        const std::vector<Detection> detections = detector.detect(frame.gray);
        annotator.add(frame, detections);
        if (frame.index == 0) report.files.push_back(frame.file);  // an image, or a video's first frame
        for (const Detection& d : detections) report.records.push_back({frame.file, frame.index, d});
        progress.advance(++report.frames + static_cast<long>(report.skipped.size()));
    }
    check_something_read(report);
    annotator.finish();
    report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    write_report(report, options);
    annotator.commit();
    progress.finish();
    if (!options.quiet) {
        std::string summary = summary_line(report.frames, static_cast<long>(report.records.size()), report.seconds);
        if (!report.skipped.empty()) summary += ", " + std::to_string(report.skipped.size()) + " skipped";
        std::fprintf(stderr, "%s\n", summary.c_str());
    }
}

}  // namespace cascade::detect
