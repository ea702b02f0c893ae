// Rectangle grouping equal to OpenCV 4.6's cv::groupRectangles, plus a scored variant and IoU NMS.
//
// Notes on matching OpenCV bit for bit:
//   - OpenCV's partition is a union-find over all ordered pairs; its classes are the connected components of
//     the (symmetric) similarity relation, numbered by the first input index that reaches each root. Any
//     union-find that finds the same components and numbers them by first appearance gives identical labels,
//     so we test each unordered pair once and only pairs whose x positions are close enough (see below).
//   - Averages: OpenCV sums in int, converts the sum to float and multiplies by 1.f/n in float, then rounds
//     with cvRound (round to nearest, ties to even, via the FPU's default mode). The inside-test margin is
//     cvRound(width * eps) computed in double.
#include "common/grouping.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <numeric>

namespace cascade {
namespace {

// cvRound on x86-64: nearest, ties to even (default rounding mode); out of range or NaN gives INT_MIN, which is
// what cvtss2si/cvtsd2si return. Floats are passed promoted to double, which is exact.
int round_like_opencv(double v) {
    if (!(v >= -2147483648.0 && v < 2147483648.0)) return INT_MIN;
    return static_cast<int>(std::nearbyint(v));
}

double similarity_delta(const Rect& a, const Rect& b, double eps) {
    const int min_sum = std::min(a.width, b.width) + std::min(a.height, b.height);
    return eps * static_cast<double>(min_sum) * 0.5;
}

bool similar(const Rect& a, const Rect& b, double eps) {
    const double delta = similarity_delta(a, b, eps);
    const auto within = [delta](std::int64_t d) { return static_cast<double>(std::llabs(d)) <= delta; };
    const std::int64_t a_right = std::int64_t{a.x} + a.width, b_right = std::int64_t{b.x} + b.width;
    const std::int64_t a_bottom = std::int64_t{a.y} + a.height, b_bottom = std::int64_t{b.y} + b.height;
    return within(std::int64_t{a.x} - b.x) && within(std::int64_t{a.y} - b.y) && within(a_right - b_right) &&
           within(a_bottom - b_bottom);
}

class DisjointSets {
public:
    explicit DisjointSets(std::size_t n) : parent_(n) { std::iota(parent_.begin(), parent_.end(), std::size_t{0}); }
    std::size_t find(std::size_t i) {
        while (parent_[i] != i) {
            parent_[i] = parent_[parent_[i]];
            i = parent_[i];
        }
        return i;
    }
    void unite(std::size_t a, std::size_t b) {
        a = find(a);
        b = find(b);
        if (a != b) parent_[std::max(a, b)] = std::min(a, b);
    }

private:
    std::vector<std::size_t> parent_;
};

// Labels 0..classes-1 for each rectangle, numbered by first appearance, like cv::partition with SimilarRects.
std::vector<std::size_t> partition_similar(const std::vector<Rect>& rects, double eps, std::size_t& classes) {
    const std::size_t n = rects.size();
    DisjointSets sets(n);

    // Sweep in x order. For a similar pair, |x difference| <= delta <= eps * (width + height) * 0.5 of either
    // member (delta uses the smaller width and height, eps >= 0), so scanning forward from each rectangle while
    // the x gap stays within its own bound finds every similar pair from its left member.
    std::vector<std::size_t> by_x(n);
    std::iota(by_x.begin(), by_x.end(), std::size_t{0});
    std::stable_sort(by_x.begin(), by_x.end(), [&](std::size_t a, std::size_t b) { return rects[a].x < rects[b].x; });
    for (std::size_t p = 0; p < n; ++p) {
        const Rect& a = rects[by_x[p]];
        const double reach = eps * static_cast<double>(std::int64_t{a.width} + a.height) * 0.5;
        for (std::size_t q = p + 1; q < n; ++q) {
            const Rect& b = rects[by_x[q]];
            if (static_cast<double>(std::int64_t{b.x} - a.x) > reach) break;
            if (similar(a, b, eps)) sets.unite(by_x[p], by_x[q]);
        }
    }

    const std::size_t none = n;
    std::vector<std::size_t> label_of_root(n, none), labels(n);
    classes = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const std::size_t root = sets.find(i);
        if (label_of_root[root] == none) label_of_root[root] = classes++;
        labels[i] = label_of_root[root];
    }
    return labels;
}

struct Groups {
    std::vector<std::size_t> labels;  // per input rectangle
    std::vector<Rect> averages;       // per class
    std::vector<int> counts;          // per class
    std::vector<std::size_t> kept;    // surviving classes, ascending (OpenCV's output order)
};

Groups group(const std::vector<Rect>& rects, int min_neighbors, double eps) {
    Groups g;
    std::size_t classes = 0;
    g.labels = partition_similar(rects, eps, classes);

    std::vector<std::int64_t> sums(classes * 4, 0);
    g.counts.assign(classes, 0);
    for (std::size_t i = 0; i < rects.size(); ++i) {
        std::int64_t* s = &sums[g.labels[i] * 4];
        s[0] += rects[i].x;
        s[1] += rects[i].y;
        s[2] += rects[i].width;
        s[3] += rects[i].height;
        ++g.counts[g.labels[i]];
    }
    g.averages.resize(classes);
    for (std::size_t c = 0; c < classes; ++c) {
        const float scale = 1.f / static_cast<float>(g.counts[c]);
        const auto average = [&](std::size_t k) {
            const float value = static_cast<float>(sums[c * 4 + k]) * scale;
            return round_like_opencv(value);
        };
        g.averages[c] = {average(0), average(1), average(2), average(3)};
    }

    for (std::size_t i = 0; i < classes; ++i) {
        const int n1 = g.counts[i];
        if (n1 <= min_neighbors) continue;
        const Rect& r1 = g.averages[i];
        bool inside_better = false;
        for (std::size_t j = 0; j < classes && !inside_better; ++j) {
            const int n2 = g.counts[j];
            if (j == i || n2 <= min_neighbors) continue;
            const Rect& r2 = g.averages[j];
            const std::int64_t dx = round_like_opencv(static_cast<double>(r2.width) * eps);
            const std::int64_t dy = round_like_opencv(static_cast<double>(r2.height) * eps);
            inside_better = r1.x >= r2.x - dx && r1.y >= r2.y - dy &&
                            std::int64_t{r1.x} + r1.width <= std::int64_t{r2.x} + r2.width + dx &&
                            std::int64_t{r1.y} + r1.height <= std::int64_t{r2.y} + r2.height + dy &&
                            (n2 > std::max(3, n1) || n1 < 3);
        }
        if (!inside_better) g.kept.push_back(i);
    }
    return g;
}

std::int64_t area(const Rect& r) { return std::int64_t{std::max(r.width, 0)} * std::max(r.height, 0); }

}  // namespace

double iou(const Rect& a, const Rect& b) {
    // Overlap of [a0, a0 + max(al, 0)) and [b0, b0 + max(bl, 0)), never negative.
    const auto overlap = [](int a0, int al, int b0, int bl) {
        const std::int64_t lo = std::max(a0, b0);
        const std::int64_t hi = std::min(std::int64_t{a0} + std::max(al, 0), std::int64_t{b0} + std::max(bl, 0));
        return std::max<std::int64_t>(hi - lo, 0);
    };
    const std::int64_t inter = overlap(a.x, a.width, b.x, b.width) * overlap(a.y, a.height, b.y, b.height);
    const std::int64_t uni = area(a) + area(b) - inter;
    return uni > 0 ? static_cast<double>(inter) / static_cast<double>(uni) : 0.0;
}

std::vector<Rect> group_rectangles(const std::vector<Rect>& rects, int min_neighbors, double eps) {
    if (min_neighbors <= 0 || rects.empty()) return rects;
    const Groups g = group(rects, min_neighbors, eps);
    std::vector<Rect> out;
    out.reserve(g.kept.size());
    for (std::size_t c : g.kept) out.push_back(g.averages[c]);
    return out;
}

std::vector<Detection> group_detections(const std::vector<Detection>& detections, int min_neighbors, double eps) {
    if (min_neighbors <= 0 || detections.empty()) return detections;
    std::vector<Rect> rects;
    rects.reserve(detections.size());
    for (const Detection& d : detections) rects.push_back(d.rect);
    const Groups g = group(rects, min_neighbors, eps);

    std::vector<float> best(g.averages.size(), 0.f);
    std::vector<bool> seen(g.averages.size(), false);
    for (std::size_t i = 0; i < detections.size(); ++i) {
        const std::size_t c = g.labels[i];
        if (!seen[c] || detections[i].score > best[c]) best[c] = detections[i].score;
        seen[c] = true;
    }
    std::vector<Detection> out;
    out.reserve(g.kept.size());
    for (std::size_t c : g.kept) out.push_back({g.averages[c], best[c]});
    return out;
}

std::vector<Detection> nms_iou(std::vector<Detection> detections, float iou_threshold) {
    std::sort(detections.begin(), detections.end(), [](const Detection& a, const Detection& b) {
        if (a.score != b.score) return a.score > b.score;
        return a.rect < b.rect;
    });
    std::vector<Detection> kept;
    for (const Detection& d : detections) {
        const bool suppressed = std::any_of(kept.begin(), kept.end(), [&](const Detection& k) {
            return iou(k.rect, d.rect) > static_cast<double>(iou_threshold);
        });
        if (!suppressed) kept.push_back(d);
    }
    return kept;
}

}  // namespace cascade
