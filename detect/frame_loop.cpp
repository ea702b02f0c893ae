#include "detect/frame_loop.hpp"

#include <algorithm>
#include <cstdio>
#include <deque>

#include "cli/output_paths.hpp"
#include "cli/tool_main.hpp"
#include "cli/usage_error.hpp"
#include "common/error.hpp"
#include "detect/annotate.hpp"
#include "detect/frame_prefetch.hpp"
#include "detect/inputs.hpp"
#include "detect/progress.hpp"

namespace cascade::detect {

using cli::UsageError;

namespace {

void check_annotate_video(const RunOptions& options, const std::vector<Source>& sources) {
    if (options.annotate_video.empty()) return;
    const auto videos = std::count_if(sources.begin(), sources.end(), [](const Source& s) { return s.video; });
    if (videos == 0)
        throw UsageError("--annotate-video", "needs a video input (.avi .mp4 .mkv .mov .webm); none given");
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

// The files a run writes must not be what it reads: an image or video, a list file, the model or template.
void check_outputs_are_not_inputs(const RunOptions& options, const FrameTool& tool,
                                  const std::vector<Source>& sources) {
    std::vector<std::string> inputs = tool.also_reads;
    for (const Source& s : sources) inputs.push_back(s.path);
    for (const std::string& a : options.inputs) inputs.push_back(a.rfind('@', 0) == 0 ? a.substr(1) : a);
    cli::check_not_an_input("--output", options.output, inputs);
    cli::check_not_an_input("--annotate-video", options.annotate_video, inputs);
}

// Drains a finder when the run leaves early, so that no frame in flight is read after it is gone.
struct DrainOnExit {
    const FrameFinder& find;
    ~DrainOnExit() { find.drain(); }
};

}  // namespace

void run_frames(const RunOptions& options, const FrameTool& tool, const FrameFinder& find) {
    const std::vector<Source> sources = expand_inputs(options.inputs, options.skip_bad);
    check_annotate_video(options, sources);
    check_outputs_are_not_inputs(options, tool, sources);
    Annotator annotator(options);
    annotator.check_names(sources);

    const VideoLimits limits{options.every, options.max_frames};
    const bool several =
        sources.size() > 1 || std::any_of(sources.begin(), sources.end(), [](const Source& s) { return s.video; });
    const bool show_bar = several && progress_wanted(options.quiet, options.progress);
    Progress progress(show_bar, show_bar ? FrameReader::expected_frames(sources, limits) : 0);
    const auto warn = [&](const std::string& subject, const std::string& problem) {
        if (!options.quiet) progress.note(cli::printable(tool.name + ": warning: " + subject + ": " + problem));
    };
    FramePrefetch reader(sources, limits, {tool.smallest, options.skip_bad}, warn);

    Report report;
    report.header = tool.header;
    const auto count = [&] { return report.frames + static_cast<long>(report.skipped.size()); };
    std::deque<Frame> in_flight;  // submitted to `find`, oldest first
    const auto finish_oldest = [&] {
        const Frame& done = in_flight.front();
        const std::vector<Detection> detections = find.take(done);
        annotator.add(done, detections);
        if (done.index == 0) report.files.push_back(done.file);  // an image, or a video's first frame
        for (const Detection& d : detections) report.records.push_back({done.file, done.index, d});
        ++report.frames;
        in_flight.pop_front();
        progress.advance(count());
    };
    const DrainOnExit drain{find};  // declared after in_flight: its frames outlive the drain
    Frame frame;
    while (reader.next(frame)) {
        if (!frame.skipped.empty()) {
            warn(frame.file, "skipped: " + frame.skipped);
            report.skipped.push_back({frame.file, frame.skipped});
            progress.advance(count());
            continue;
        }
        if (static_cast<int>(in_flight.size()) >= find.in_flight) finish_oldest();
        in_flight.push_back(std::move(frame));
        find.submit(in_flight.back());
    }
    while (!in_flight.empty()) finish_oldest();
    check_something_read(report);
    annotator.finish();
    report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - tool.start).count();
    write_report(report, options);
    annotator.commit();
    progress.finish();
    if (!options.quiet) {
        std::string summary = summary_line(report.frames, static_cast<long>(report.records.size()), report.seconds);
        if (!report.skipped.empty()) summary += ", " + std::to_string(report.skipped.size()) + " skipped";
        std::fprintf(stderr, "%s\n", summary.c_str());
    }
}

void run_frames(const RunOptions& options, const FrameTool& tool,
                const std::function<std::vector<Detection>(const Frame& frame)>& find) {
    run_frames(options, tool, FrameFinder{[](const Frame&) {}, find, [] {}, 1});
}

}  // namespace cascade::detect
