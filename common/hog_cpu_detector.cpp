#include "common/hog_cpu_detector.hpp"

#include <algorithm>
#include <mutex>

#include "common/cascade_eval.hpp"
#include "common/parallel.hpp"
#include "common/resize_exact.hpp"
#include "common/scan.hpp"

namespace cascade {

void HogScanStats::add(const HogScanStats& other) {
    windows += other.windows;
    blocks += other.blocks;
    if (rejected_at.size() < other.rejected_at.size()) rejected_at.resize(other.rejected_at.size(), 0);
    for (std::size_t s = 0; s < other.rejected_at.size(); ++s) rejected_at[s] += other.rejected_at[s];
}

void compute_hog_level(const GrayView& image, const PyramidLevel& level, HogIntegral& out) {
    GrayImage scaled(level.size.width, level.size.height);
    resize_linear_exact(image, scaled);
    compute_hog_integral(scaled.view(), out);
}

std::vector<Detection> detect_windows(const HogCascade& cascade, const GrayView& image, const ScanParams& params,
                                      HogScanStats* stats) {
    const std::vector<PyramidLevel> levels = pyramid_levels(image.size(), cascade.window, params.pyramid);
    const HogCascadeView view = view_of(cascade);
    std::vector<Detection> found;
    HogScanStats total;
    total.rejected_at.assign(cascade.stages.size() + 1, 0);
    std::mutex mutex;
    parallel_for(
        static_cast<int>(levels.size()),
        [&](int i) {
            const PyramidLevel& level = levels[i];
            // One table per thread, reused for the smaller levels the thread takes next (largest first): a
            // fresh table for every level costs more in page faults than it takes to fill.
            thread_local HogIntegral integral;
            compute_hog_level(image, level, integral);
            const HogIntegralView sums = integral.view();
            std::vector<Detection> local;
            HogScanStats counts;
            counts.rejected_at.assign(cascade.stages.size() + 1, 0);
            const int rows = scan_extent(level.size.height, cascade.window.height);
            for (int y = 0; y < rows; y += scan_step(params.rule, level)) {
                scan_row(params.rule, level, cascade.window, y, [&](int x, int wy) {
                    int rejected_at = 0;
                    double score = 0.0;
                    if (accept_window(view, HogWindow<HogIntegralView>{view, sums, x, wy}, rejected_at, score))
                        local.push_back({to_image(level, x, wy), static_cast<float>(score)});
                    ++counts.windows;
                    counts.blocks += hog_blocks_evaluated(view, rejected_at);
                    ++counts.rejected_at[rejected_at];
                    return rejected_at;
                });
            }
            std::lock_guard<std::mutex> lock(mutex);
            found.insert(found.end(), local.begin(), local.end());
            total.add(counts);
        },
        params.threads);

    std::sort(found.begin(), found.end(), [](const Detection& a, const Detection& b) { return a.rect < b.rect; });
    if (stats) *stats = total;
    return found;
}

}  // namespace cascade
