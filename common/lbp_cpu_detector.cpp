#include "common/lbp_cpu_detector.hpp"

#include <algorithm>
#include <mutex>

#include "common/cascade_eval.hpp"
#include "common/integral.hpp"
#include "common/parallel.hpp"
#include "common/resize_exact.hpp"

namespace cascade {

namespace {

// Rows of one level scanned as one task: small enough to balance 2..64 cores, large enough to amortise.
constexpr int kRowsPerTask = 8;

struct LevelTask {
    int level;
    int first_row;
};

}  // namespace

std::vector<Detection> detect_windows(const LbpCascade& cascade, const GrayView& image, const ScanParams& params) {
    const std::vector<PyramidLevel> levels = pyramid_levels(image.size(), cascade.window, params.pyramid);
    std::vector<IntegralImage> integrals(levels.size());
    parallel_for(
        static_cast<int>(levels.size()),
        [&](int i) {
            GrayImage scaled(levels[i].size.width, levels[i].size.height);
            resize_linear_exact(image, scaled);
            compute_integral(scaled.view(), integrals[i]);
        },
        params.threads);

    std::vector<LevelTask> tasks;
    for (int i = 0; i < static_cast<int>(levels.size()); ++i) {
        const int rows = scan_extent(levels[i].size.height, cascade.window.height);
        const int step = scan_step(params.rule, levels[i]);
        for (int y = 0; y < rows; y += kRowsPerTask * step) tasks.push_back({i, y});
    }

    const LbpCascadeView view = view_of(cascade);
    std::vector<Detection> found;
    std::mutex found_mutex;
    parallel_for(
        static_cast<int>(tasks.size()),
        [&](int t) {
            const PyramidLevel& level = levels[tasks[t].level];
            const IntegralView sums = integrals[tasks[t].level].view();
            const int step = scan_step(params.rule, level);
            const int rows = scan_extent(level.size.height, cascade.window.height);
            const int row_end = std::min(rows, tasks[t].first_row + kRowsPerTask * step);
            std::vector<Detection> local;
            for (int y = tasks[t].first_row; y < row_end; y += step) {
                scan_row(params.rule, level, cascade.window, y, [&](int x, int wy) {
                    int rejected_at = 0;
                    double score = 0.0;
                    if (accept_window(view, LbpWindow<IntegralView>{view, sums, x, wy}, rejected_at, score))
                        local.push_back({to_image(level, x, wy), static_cast<float>(score)});
                    return rejected_at;
                });
            }
            std::lock_guard<std::mutex> lock(found_mutex);
            found.insert(found.end(), local.begin(), local.end());
        },
        params.threads);

    std::sort(found.begin(), found.end(), [](const Detection& a, const Detection& b) { return a.rect < b.rect; });
    return found;
}

}  // namespace cascade
