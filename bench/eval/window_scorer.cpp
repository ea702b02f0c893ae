#include "bench/eval/window_scorer.hpp"

#include "bench/eval/model_scan.hpp"
#include "common/error.hpp"
#include "data/image_files.hpp"
#include "data/positive_samples.hpp"

namespace cascade::eval {

WindowScorer cascade_scorer(const Model& model, const ScanParams& scan, const std::optional<data::Margin>& margin) {
    const Size window = window_of(model);
    const double span = depth_span(model);
    WindowScorer s;
    s.window = window;
    s.work_unit = work_unit(model);
    s.settings.emplace_back("depth_span", std::to_string(span));
    s.centred = [&model, window, span, margin](const std::string& path) {
        if (margin) {
            const GrayImage resized = data::crop_window(path, {window, margin, 0.0, false, {}});
            return window_depth_score(model, resized.view(), 0, 0, span);
        }
        const GrayImage crop = data::read_gray(path);
        if (crop.width < window.width || crop.height < window.height)
            throw InputError(path, "crop is " + std::to_string(crop.width) + "x" + std::to_string(crop.height) +
                                       ", smaller than the model window");
        return window_depth_score(model, crop.view(), (crop.width - window.width) / 2,
                                  (crop.height - window.height) / 2, span);
    };
    s.scan = [&model, scan, span](const std::string& path, std::vector<double>& scores) {
        double work = 0.0;
        for (const ScoredWindow& w : scan_depth_scores(model, data::read_gray(path).view(), scan, span, 0)) {
            scores.push_back(w.score);
            work += w.work;
        }
        return work;
    };
    return s;
}

}  // namespace cascade::eval
