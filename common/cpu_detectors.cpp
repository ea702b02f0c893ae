// The CPU reference detectors of every family (lbp_, hog_, haar_ and cov_cpu_detector.hpp): one visitor of
// scan_pyramid that keeps the windows the cascade accepts and counts what it evaluated.
#include <algorithm>

#include "common/cov_cpu_detector.hpp"
#include "common/error.hpp"
#include "common/haar_cpu_detector.hpp"
#include "common/hog_cpu_detector.hpp"
#include "common/lbp_cpu_detector.hpp"
#include "common/scan_pyramid.hpp"

namespace cascade {

namespace {

template <class Family>
class AcceptedWindows {
public:
    struct Task {
        const AcceptedWindows* owner;
        std::vector<Detection> found;
        ScanStats counts;

        int visit(const LevelPlanes<Family>& level, int x, int y) {
            const typename Family::View& view = owner->view_;
            const typename Family::template Window<typename Family::Sampler> window{view, level.sampler, x, y};
            int rejected_at = 0;
            double score = 0.0;
            const bool accepted = accept_window(view, window, rejected_at, score);
            if (accepted) found.push_back({to_image(level.level, x, y), static_cast<float>(score)});
            if (owner->counting_) {
                ++counts.windows;
                counts.weaks += weaks_evaluated(view, rejected_at);
                if (rejected_at == kWindowRefused)
                    ++counts.refused;
                else  // a final stage's rejection has rejected_at == num_stages, its own entry
                    ++counts.rejected_at[accepted ? counts.rejected_at.size() - 1
                                                  : static_cast<std::size_t>(rejected_at)];
            }
            return rejected_at;
        }
    };

    AcceptedWindows(const typename Family::Cascade& cascade, bool counting)
        : view_(view_of(cascade)), counting_(counting) {
        if (counting_) stats_.rejected_at.assign(cascade.stages.size() + (has_final_stage(view_) ? 2 : 1), 0);
    }

    Task task() const {
        Task t{this, {}, {}};
        if (counting_) t.counts.rejected_at.assign(stats_.rejected_at.size(), 0);
        return t;
    }
    void merge(Task& t) {
        found_.insert(found_.end(), t.found.begin(), t.found.end());
        stats_.add(t.counts);
    }

    // Sorted by rectangle, so that the result does not depend on thread timing.
    std::vector<Detection> sorted() {
        std::sort(found_.begin(), found_.end(), [](const Detection& a, const Detection& b) { return a.rect < b.rect; });
        return std::move(found_);
    }
    const ScanStats& stats() const { return stats_; }

private:
    typename Family::View view_;
    bool counting_;
    std::vector<Detection> found_;
    ScanStats stats_;
};

template <class Cascade>
std::vector<Detection> accepted_windows(const Cascade& cascade, const GrayView& image, const ScanParams& params,
                                        ScanStats* stats) {
    AcceptedWindows<typename FamilyOf<Cascade>::type> visitor(cascade, stats != nullptr);
    scan_pyramid(cascade, image, params, visitor);
    if (stats) *stats = visitor.stats();
    return visitor.sorted();
}

}  // namespace

std::vector<Detection> detect_windows(const LbpCascade& cascade, const GrayView& image, const ScanParams& params,
                                      ScanStats* stats) {
    return accepted_windows(cascade, image, params, stats);
}

std::vector<Detection> detect_windows(const HogCascade& cascade, const GrayView& image, const ScanParams& params,
                                      ScanStats* stats) {
    return accepted_windows(cascade, image, params, stats);
}

std::vector<Detection> detect_windows(const HaarCascade& cascade, const GrayView& image, const ScanParams& params,
                                      ScanStats* stats) {
    return accepted_windows(cascade, image, params, stats);
}

void check_cov_stride(int stride) {
    if (stride <= 0 || stride % kCovGrid != 0)
        throw InputError("stride", (stride <= 0 ? std::string("auto") : std::to_string(stride)) +
                                       ": a covariance model scans windows on a grid of " + std::to_string(kCovGrid) +
                                       " pixels (a stride that is a multiple of " + std::to_string(kCovGrid) + ")");
}

std::vector<Detection> detect_windows(const CovCascade& cascade, const GrayView& image, const ScanParams& params,
                                      ScanStats* stats) {
    check_cov_stride(params.rule.stride);
    const std::vector<PyramidLevel> levels = pyramid_levels(image.size(), cascade.window, params.pyramid);
    if (!levels.empty() && (levels.front().size.width > kCovMaxLevelSide || levels.front().size.height > kCovMaxLevelSide))
        throw InputError("image", "a pyramid level of " + std::to_string(levels.front().size.width) + "x" +
                                      std::to_string(levels.front().size.height) + " is larger than a covariance " +
                                      "model scans (" + std::to_string(kCovMaxLevelSide) + " pixels a side)");
    return accepted_windows(cascade, image, params, stats);
}

}  // namespace cascade
