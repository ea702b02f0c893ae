#include "bench/eval/protocols.hpp"

#include <algorithm>

#include "bench/eval/box_matching.hpp"
#include "bench/eval/model_scan.hpp"
#include "common/error.hpp"
#include "common/parallel.hpp"
#include "data/image_files.hpp"
#include "data/progress.hpp"

namespace cascade::eval {

ModelResult window_protocol(const WindowScorer& scorer, const TestSet& set, int threads) {
    ModelResult r;
    r.positives = static_cast<int>(set.crops.size());
    r.images = static_cast<int>(set.negative_images.size());
    r.settings = scorer.settings;
    r.work_unit = scorer.work_unit;

    std::vector<double> hits(set.crops.size());
    parallel_for(
        r.positives,
        [&](int i) { hits[static_cast<std::size_t>(i)] = scorer.centred(set.crops[static_cast<std::size_t>(i)]); },
        threads);

    // Each negative window counts at the highest hit score at or below its own (no curve point lies between
    // two hit scores); windows below every hit score never count.
    std::vector<double> levels = hits;
    std::sort(levels.begin(), levels.end());
    levels.erase(std::unique(levels.begin(), levels.end()), levels.end());
    std::vector<double> counts(levels.size(), 0.0);
    double work = 0.0;
    data::Progress progress("negative images", r.images);
    std::vector<double> scores;
    for (int i = 0; i < r.images; ++i) {
        scores.clear();
        work += scorer.scan(set.negative_images[static_cast<std::size_t>(i)], scores);
        r.units += static_cast<double>(scores.size());
        for (const double score : scores) {
            const auto above = std::upper_bound(levels.begin(), levels.end(), score);
            if (above != levels.begin()) counts[static_cast<std::size_t>(above - levels.begin()) - 1] += 1.0;
        }
        progress.update(i + 1);
    }
    r.work_per_window = r.units > 0.0 ? work / r.units : 0.0;
    std::vector<ScoreCount> alarms;
    for (std::size_t k = 0; k < levels.size(); ++k)
        if (counts[k] > 0.0) alarms.push_back({levels[k], counts[k]});
    summarise(Protocol::window, std::move(hits), std::move(alarms), r);
    return r;
}

namespace {

// Matches the detections on each image (`detections_of(i)`) to its boxes and sweeps their score into r.
template <class DetectionsOf>
void score_images(const std::vector<data::AnnotatedImage>& images, double min_iou, DetectionsOf&& detections_of,
                  ModelResult& r) {
    r.images = static_cast<int>(images.size());
    r.units = r.images;
    std::vector<double> hits;
    std::vector<ScoreCount> alarms;
    for (int i = 0; i < r.images; ++i) {
        const ImageMatches m = match_detections(detections_of(i), images[static_cast<std::size_t>(i)].boxes, min_iou);
        r.positives += m.ground_truth;
        hits.insert(hits.end(), m.hit_scores.begin(), m.hit_scores.end());
        for (const double score : m.false_alarm_scores) alarms.push_back({score, 1.0});
    }
    if (r.positives == 0) throw InputError("--annotations", "the annotated images hold no box to find");
    summarise(Protocol::image, std::move(hits), std::move(alarms), r);
}

}  // namespace

ModelResult image_protocol(const Model& model, const std::vector<data::AnnotatedImage>& images,
                           const ImageProtocolParams& params) {
    const Size window = window_of(model);
    const double span = depth_span(model);
    const int depth = stage_count(model);
    const int min_depth = std::max(0, depth - params.swept_stages);
    // Scores relative to the full depth fit Detection's float: a window the cascade accepts scores its final
    // sum, as the detector reports it (the same float: --detections of a cascade-detect run sweep the same
    // thresholds), those rejected earlier less than -span / 2.
    const double offset = depth * span;
    ModelResult r;
    r.settings.emplace_back("depth_span", std::to_string(span));
    r.settings.emplace_back("score_offset", std::to_string(offset));
    data::Progress progress("images", static_cast<int>(images.size()));
    score_images(
        images, params.min_iou,
        [&](int i) {
            const GrayImage image = data::read_gray(images[static_cast<std::size_t>(i)].path);
            data::check_boxes_inside(images[static_cast<std::size_t>(i)], image.size());
            std::vector<Detection> raw;
            for (const ScoredWindow& w : scan_depth_scores(model, image.view(), params.scan, span, min_depth))
                raw.push_back({w.rect, static_cast<float>(w.score - offset)});
            progress.update(i + 1);
            return group_and_clip(raw, params.grouping, image.size(), window);
        },
        r);
    return r;
}

ModelResult image_protocol(const std::vector<std::vector<Detection>>& detections,
                           const std::vector<data::AnnotatedImage>& images, double min_iou) {
    ModelResult r;
    const auto on_image = [&](int i) -> const std::vector<Detection>& {
        return detections[static_cast<std::size_t>(i)];
    };
    score_images(images, min_iou, on_image, r);
    return r;
}

}  // namespace cascade::eval
