// scan_pyramid: every window of every pyramid level of an image, for a cascade of any feature family
// (feature_family.hpp), on the CPU. It composes the three parts: the pyramid (pyramid_levels and the exact
// resize of each level), the family's planes of each level, and the positions of params.rule (scan.hpp,
// OpenCV's skip rule included); what happens at a window is the visitor's. The CPU detectors, the HoG
// negative miner and cascade-eval all scan through it.
//
// Visitor contract:
//   visitor.task() -> Task        a per-task accumulator, made on the thread that runs the task
//   task.visit(level, x, y) -> int   called for each window position (x, y) of `level` (a LevelPlanes);
//                                 returns the stage that rejected the window (cascade.num_stages when the
//                                 cascade accepted it), which the skip rule of ScanRule{0} reads
//   visitor.merge(task)           once per task, under a lock, after its windows
//   visitor.origin(level_index) -> ScanOrigin  optional, fixed strides only: the first position scanned on that
//                                 level (default (0, 0)); called once per level before any of its windows
// With params.threads == 1 the levels are scanned one after another, largest first, each right after its
// origin call, so a visitor may draw its origins from the same random stream as its other choices.
#pragma once

#include <algorithm>
#include <mutex>
#include <type_traits>
#include <utility>
#include <vector>

#include "common/feature_family.hpp"
#include "common/parallel.hpp"
#include "common/pyramid.hpp"
#include "common/resize_exact.hpp"
#include "common/scan.hpp"

namespace cascade {

// One pyramid level as a visitor sees it: where it lies in the pyramid and its planes.
template <class Family>
struct LevelPlanes {
    int index = 0;  // in pyramid_levels order
    PyramidLevel level;
    typename Family::Sampler sampler;
};

namespace scan_detail {

// Rows of one level scanned as one task when all levels are built first: small enough to balance 2..64
// cores, large enough to amortise.
constexpr int kRowsPerTask = 8;

template <class V, class = void>
struct HasOrigin : std::false_type {};
template <class V>
struct HasOrigin<V, std::void_t<decltype(std::declval<V&>().origin(0))>> : std::true_type {};

template <class Visitor>
ScanOrigin origin_of(Visitor& visitor, int level_index) {
    if constexpr (HasOrigin<Visitor>::value) return visitor.origin(level_index);
    return {0, 0};
}

// Rows [first_row, end_row) of one level, from `origin`, into `task`.
template <class Family, class Task>
void scan_rows(const LevelPlanes<Family>& planes, const ScanRule& rule, Size window, ScanOrigin origin, int first_row,
               int end_row, Task& task) {
    const int step = scan_step(rule, planes.level);
    for (int y = first_row; y < end_row; y += step)
        scan_row(rule, planes.level, window, y, origin.x, [&](int x, int wy) { return task.visit(planes, x, wy); });
}

// One task per level: build its planes (in a buffer each thread reuses for the smaller levels it takes next,
// largest first: a fresh buffer for every level costs more in page faults than it takes to fill), scan it.
template <class Family, class Visitor>
void scan_level_by_level(const typename Family::Cascade& cascade, const GrayView& image,
                         const std::vector<PyramidLevel>& levels, const ScanParams& params, Visitor& visitor) {
    std::mutex merge_mutex;
    parallel_for(
        static_cast<int>(levels.size()),
        [&](int i) {
            const PyramidLevel& level = levels[static_cast<std::size_t>(i)];
            ScanOrigin origin;
            {
                std::lock_guard<std::mutex> lock(merge_mutex);  // the visitor's own state, one caller at a time
                origin = origin_of(visitor, i);
            }
            thread_local typename Family::Planes planes;
            Family::build(cascade, level_pixels(image, level).view(), planes);
            const LevelPlanes<Family> view{i, level, Family::sampler(planes)};
            auto task = visitor.task();
            const int rows = scan_rows_end(params.rule, level, levels.front().size.width, cascade.window);
            scan_rows(view, params.rule, cascade.window, origin, origin.y, rows, task);
            std::lock_guard<std::mutex> lock(merge_mutex);
            visitor.merge(task);
        },
        params.threads);
}

// Every level's planes first (in parallel), then bands of kRowsPerTask rows of any level as tasks, so that
// the largest level does not bound the speed-up on many cores.
template <class Family, class Visitor>
void scan_all_levels_at_once(const typename Family::Cascade& cascade, const GrayView& image,
                             const std::vector<PyramidLevel>& levels, const ScanParams& params, Visitor& visitor) {
    std::vector<typename Family::Planes> planes(levels.size());
    parallel_for(
        static_cast<int>(levels.size()),
        [&](int i) { Family::build(cascade, level_pixels(image, levels[static_cast<std::size_t>(i)]).view(), planes[i]); },
        params.threads);

    struct Band {
        int level, first_row;
    };
    std::vector<Band> bands;
    std::vector<ScanOrigin> origins;
    for (int i = 0; i < static_cast<int>(levels.size()); ++i) {
        origins.push_back(origin_of(visitor, i));
        const int rows =
            scan_rows_end(params.rule, levels[static_cast<std::size_t>(i)], levels.front().size.width, cascade.window);
        const int step = scan_step(params.rule, levels[static_cast<std::size_t>(i)]);
        for (int y = origins.back().y; y < rows; y += kRowsPerTask * step) bands.push_back({i, y});
    }

    std::mutex merge_mutex;
    parallel_for(
        static_cast<int>(bands.size()),
        [&](int b) {
            const Band band = bands[static_cast<std::size_t>(b)];
            const auto i = static_cast<std::size_t>(band.level);
            const LevelPlanes<Family> view{band.level, levels[i], Family::sampler(planes[i])};
            const int rows = scan_rows_end(params.rule, levels[i], levels.front().size.width, cascade.window);
            const int end_row = std::min(rows, band.first_row + kRowsPerTask * scan_step(params.rule, levels[i]));
            auto task = visitor.task();
            scan_rows(view, params.rule, cascade.window, origins[i], band.first_row, end_row, task);
            std::lock_guard<std::mutex> lock(merge_mutex);
            visitor.merge(task);
        },
        params.threads);
}

}  // namespace scan_detail

// Requires a validated cascade and params.pyramid.scale_factor > 1. Exceptions of the visitor reach the
// caller (after the running tasks end). `Family`: the cascade's own (FamilyOf) unless another is named, one whose
// planes hold more than the cascade reads (HogLbpFamily: a HoG miner keeping windows for LBP learners to come).
template <class Family = void, class Cascade, class Visitor>
void scan_pyramid(const Cascade& cascade, const GrayView& image, const ScanParams& params, Visitor& visitor) {
    using F = std::conditional_t<std::is_void_v<Family>, typename FamilyOf<Cascade>::type, Family>;
    const std::vector<PyramidLevel> levels = pyramid_levels(image.size(), cascade.window, params.pyramid);
    if (F::kAllLevelsAtOnce && params.threads != 1)
        scan_detail::scan_all_levels_at_once<F>(cascade, image, levels, params, visitor);
    else
        scan_detail::scan_level_by_level<F>(cascade, image, levels, params, visitor);
}

}  // namespace cascade
