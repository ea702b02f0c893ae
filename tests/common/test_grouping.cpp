// Detection grouping in common/ against OpenCV 4.6's cv::groupRectangles (element for element, in order), plus
// hand-worked cases for grouping, the scored variant and IoU NMS.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <opencv2/core.hpp>
#include <opencv2/objdetect.hpp>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "common/grouping.hpp"

namespace {

using cascade::Detection;
using cascade::Rect;

std::vector<cv::Rect> to_cv(const std::vector<Rect>& rects) {
    std::vector<cv::Rect> out;
    for (const Rect& r : rects) out.emplace_back(r.x, r.y, r.width, r.height);
    return out;
}

std::vector<Rect> from_cv(const std::vector<cv::Rect>& rects) {
    std::vector<Rect> out;
    for (const cv::Rect& r : rects) out.push_back({r.x, r.y, r.width, r.height});
    return out;
}

std::vector<Rect> sorted(std::vector<Rect> rects) {
    std::sort(rects.begin(), rects.end());
    return rects;
}

std::string show(const std::vector<Rect>& rects) {
    std::ostringstream s;
    s << rects.size() << " rects:";
    for (std::size_t i = 0; i < rects.size() && i < 8; ++i)
        s << " (" << rects[i].x << "," << rects[i].y << " " << rects[i].width << "x" << rects[i].height << ")";
    return s.str();
}

// The standard mt19937 output sequence is fixed by the C++ standard; the distributions are not, so the scenes
// are drawn with plain modulo arithmetic and are the same with every standard library.
class Random {
public:
    explicit Random(std::uint32_t seed) : engine_(seed) {}
    int between(int lo, int hi) { return lo + static_cast<int>(engine_() % static_cast<std::uint32_t>(hi - lo + 1)); }
    bool chance(int percent) { return between(0, 99) < percent; }
    std::uint32_t raw() { return static_cast<std::uint32_t>(engine_()); }

private:
    std::mt19937 engine_;
};

Rect jitter(Random& rng, const Rect& base, int percent) {
    const int jx = std::max(1, base.width * percent / 100), jy = std::max(1, base.height * percent / 100);
    return {base.x + rng.between(-jx, jx), base.y + rng.between(-jy, jy), base.width + rng.between(-jx, jx),
            base.height + rng.between(-jy, jy)};
}

// A detector-like scene: clusters of jittered boxes of many sizes, lone boxes, exact duplicates, and small
// clusters inside big ones (the case the "inside a better supported group" filter is for). offset moves the
// scene to large coordinates, where int sums above 2^24 lose precision in OpenCV's float average.
std::vector<Rect> scene(Random& rng, int clusters, int offset) {
    std::vector<Rect> rects;
    for (int c = 0; c < clusters; ++c) {
        const int size = rng.between(12, 160);
        const Rect base{offset + rng.between(0, 1200), offset + rng.between(0, 900), size,
                        size * rng.between(80, 125) / 100};
        const int members = rng.between(1, 12);
        const int spread = rng.between(2, 25);
        for (int m = 0; m < members; ++m) rects.push_back(jitter(rng, base, spread));
        if (rng.chance(15)) rects.push_back(rects.back());  // duplicate window
        if (rng.chance(30) && size >= 40) {                  // small group inside this one
            const int small = size / rng.between(2, 4);
            const Rect inner{base.x + rng.between(0, size - small), base.y + rng.between(0, size - small), small,
                             small};
            const int inner_members = rng.between(1, 6);
            for (int m = 0; m < inner_members; ++m) rects.push_back(jitter(rng, inner, 8));
        }
    }
    // Shuffle (Fisher-Yates on the raw engine) so that groups are interleaved, as scan order interleaves them.
    for (std::size_t i = rects.size(); i > 1; --i) std::swap(rects[i - 1], rects[rng.raw() % i]);
    return rects;
}

std::vector<Rect> opencv_group(const std::vector<Rect>& rects, int threshold, double eps) {
    std::vector<cv::Rect> cv_rects = to_cv(rects);
    cv::groupRectangles(cv_rects, threshold, eps);
    return from_cv(cv_rects);
}

}  // namespace

TEST_CASE("group_rectangles equals cv::groupRectangles in order on randomised scenes") {
    Random rng(20240607u);
    const double eps_values[] = {0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4};
    std::size_t total_rects = 0, total_groups = 0, scenes = 0;
    for (int trial = 0; trial < 420; ++trial) {
        const int offset = trial % 7 == 6 ? 4'000'000 : 0;
        const auto rects = scene(rng, rng.between(1, trial % 10 == 0 ? 120 : 25), offset);
        const int threshold = 1 + trial % 5;
        const double eps = eps_values[(trial / 5) % 7];
        const auto ours = cascade::group_rectangles(rects, threshold, eps);
        const auto theirs = opencv_group(rects, threshold, eps);
        CAPTURE(trial);
        CAPTURE(threshold);
        CAPTURE(eps);
        CHECK_MESSAGE(sorted(ours) == sorted(theirs), "ours " << show(sorted(ours)) << " OpenCV "
                                                              << show(sorted(theirs)));
        CHECK_MESSAGE(ours == theirs, "order differs: ours " << show(ours) << " OpenCV " << show(theirs));
        total_rects += rects.size();
        total_groups += theirs.size();
        ++scenes;
    }
    MESSAGE(scenes << " scenes, " << total_rects << " rectangles, " << total_groups << " groups kept by OpenCV");
    CHECK(total_rects > 5000);
    CHECK(total_groups > 500);
}

TEST_CASE("one large scene: thousands of rectangles in one call, every threshold") {
    Random rng(7u);
    const auto rects = scene(rng, 400, 0);
    CHECK(rects.size() > 2000);
    for (int threshold = 1; threshold <= 5; ++threshold) {
        for (double eps : {0.1, 0.2, 0.4}) {
            CAPTURE(threshold);
            CAPTURE(eps);
            CHECK(cascade::group_rectangles(rects, threshold, eps) == opencv_group(rects, threshold, eps));
        }
    }
}

TEST_CASE("output set does not depend on input order, and output order follows each group's first member") {
    Random rng(99u);
    for (int trial = 0; trial < 40; ++trial) {
        auto rects = scene(rng, 30, 0);
        const int threshold = 1 + trial % 5;
        const auto before = cascade::group_rectangles(rects, threshold, 0.2);
        std::reverse(rects.begin(), rects.end());
        const auto after = cascade::group_rectangles(rects, threshold, 0.2);
        CAPTURE(trial);
        CHECK(sorted(before) == sorted(after));
        CHECK(after == opencv_group(rects, threshold, 0.2));  // OpenCV's order changes the same way
    }
}

// Hand-worked case at eps 0.2 (the input order is given by the index comments):
//   A [0] (100,100,50,50)  B [4] (102,101,50,52)  C [7] (98,99,52,50)
//       A~B: delta = 0.2*(50+50)*0.5 = 10; |dx|=2 |dy|=1 |d right|=|150-152|=2 |d bottom|=|150-153|=3 -> similar
//       A~C: delta = 10; 2, 1, |150-150|=0, |150-149|=1 -> similar. One group, n=3:
//       x (100+102+98)/3 = 100, y (100+101+99)/3 = 100, w 152/3 = 50.67 -> 51, h 152/3 -> 51 => (100,100,51,51)
//   D [1] (300,300,40,40) alone: n=1 <= min_neighbors 1 -> dropped.
//   Big [2],[5],[9],[10]: (200,10,100,100) (204,14,100,100) (196,6,100,100) (200,10,100,100); pairwise deltas
//       20, diffs <= 8 -> one group, n=4, sums 800,40,400,400 -> (200,10,100,100).
//   Small [3],[8]: (220,30,30,30) (222,32,30,30): delta 6, diffs 2 -> one group n=2 -> (221,31,30,30). Not
//       similar to Big (|dx| 21 > 6). n=2 > 1 survives the count, but Big widened by dx = dy = round(100*0.2)
//       = 20 spans x 180..320, y -10..130 and contains (221,31)-(251,61); n2=4 > max(3,2) -> removed.
//   Half [6],[11]: (11,21,30,30) (12,22,31,31): delta 6, diffs 1,1,2,2 -> n=2; averages 11.5, 21.5, 30.5,
//       30.5 round half to even -> (12,22,30,30) (rounding half up would give (12,22,31,31)). Not inside A's
//       group (x 12 < 100-10).
//   Classes by first member: ABC (index 0), D (1), Big (2), Small (3), Half (6); kept: ABC, Big, Half.
TEST_CASE("hand-worked grouping: averaging, lone box, small box inside a well supported one, ties to even") {
    const std::vector<Rect> rects = {
        {100, 100, 50, 50}, {300, 300, 40, 40}, {200, 10, 100, 100}, {220, 30, 30, 30},
        {102, 101, 50, 52}, {204, 14, 100, 100}, {11, 21, 30, 30},   {98, 99, 52, 50},
        {222, 32, 30, 30},  {196, 6, 100, 100},  {200, 10, 100, 100}, {12, 22, 31, 31},
    };
    const std::vector<Rect> expected = {{100, 100, 51, 51}, {200, 10, 100, 100}, {12, 22, 30, 30}};
    CHECK(cascade::group_rectangles(rects, 1) == expected);
    CHECK(opencv_group(rects, 1, 0.2) == expected);  // the hand calculation agrees with OpenCV

    // At min_neighbors 2 the pairs (Small, Half) and D fall below the count; ABC (3) and Big (4) remain.
    const std::vector<Rect> expected2 = {{100, 100, 51, 51}, {200, 10, 100, 100}};
    CHECK(cascade::group_rectangles(rects, 2) == expected2);

    // min_neighbors <= 0 returns the input unchanged.
    CHECK(cascade::group_rectangles(rects, 0) == rects);
    CHECK(cascade::group_rectangles(rects, -3) == rects);
    CHECK(cascade::group_rectangles({}, 2).empty());
}

// A small group of 3 inside a big group of 3 is kept (n2 = 3 is not > max(3, 3), and n1 = 3 is not < 3); a big
// group of 4 removes it (4 > 3).
TEST_CASE("hand-worked grouping: the support rule of the inside filter") {
    std::vector<Rect> rects = {
        {200, 10, 100, 100}, {200, 10, 100, 100}, {200, 10, 100, 100},  // big, n=3 -> (200,10,100,100)
        {220, 30, 30, 30},   {220, 30, 30, 30},   {220, 30, 30, 30},    // small inside, n=3 -> (220,30,30,30)
    };
    const std::vector<Rect> both = {{200, 10, 100, 100}, {220, 30, 30, 30}};
    CHECK(cascade::group_rectangles(rects, 1) == both);
    rects.push_back({200, 10, 100, 100});  // big now n=4
    const std::vector<Rect> big_only = {{200, 10, 100, 100}};
    CHECK(cascade::group_rectangles(rects, 1) == big_only);
    CHECK(opencv_group(rects, 1, 0.2) == big_only);
}

TEST_CASE("group_detections: same rectangles as group_rectangles, max member score per group") {
    // The hand-worked scene above with scores; group maxima: ABC 0.7 (from B), Big 5.0 (from [9]), Half -0.5.
    const std::vector<Detection> hand = {
        {{100, 100, 50, 50}, 0.5f}, {{300, 300, 40, 40}, 9.f},  {{200, 10, 100, 100}, 1.f}, {{220, 30, 30, 30}, 8.f},
        {{102, 101, 50, 52}, 0.7f}, {{204, 14, 100, 100}, 2.f}, {{11, 21, 30, 30}, -1.f},   {{98, 99, 52, 50}, 0.6f},
        {{222, 32, 30, 30}, 7.f},   {{196, 6, 100, 100}, 5.f},  {{200, 10, 100, 100}, 3.f}, {{12, 22, 31, 31}, -0.5f},
    };
    const auto grouped = cascade::group_detections(hand, 1);
    REQUIRE(grouped.size() == 3);
    CHECK(grouped[0].rect == Rect{100, 100, 51, 51});
    CHECK(grouped[0].score == 0.7f);
    CHECK(grouped[1].rect == Rect{200, 10, 100, 100});
    CHECK(grouped[1].score == 5.f);
    CHECK(grouped[2].rect == Rect{12, 22, 30, 30});
    CHECK(grouped[2].score == -0.5f);

    const auto unchanged = cascade::group_detections(hand, 0);
    REQUIRE(unchanged.size() == hand.size());
    for (std::size_t i = 0; i < hand.size(); ++i) {
        CHECK(unchanged[i].rect == hand[i].rect);
        CHECK(unchanged[i].score == hand[i].score);
    }

    // Random scenes: rectangles equal OpenCV's in order; each score is the maximum over the members of the
    // group, found through cv::partition with OpenCV's own similarity rule (cv::SimilarRects).
    Random rng(4242u);
    for (int trial = 0; trial < 60; ++trial) {
        const auto rects = scene(rng, 25, 0);
        const int threshold = 1 + trial % 5;
        const double eps = 0.1 + 0.05 * (trial % 7);
        std::vector<Detection> detections;
        for (const Rect& r : rects) detections.push_back({r, static_cast<float>(rng.between(-1000, 1000)) / 8.f});

        std::vector<int> labels;
        const int classes = cv::partition(to_cv(rects), labels, cv::SimilarRects(eps));
        std::vector<float> best(static_cast<std::size_t>(classes), -1e30f);
        std::vector<int> count(static_cast<std::size_t>(classes), 0);
        std::vector<std::int64_t> sum(static_cast<std::size_t>(classes) * 4, 0);
        for (std::size_t i = 0; i < rects.size(); ++i) {
            const auto c = static_cast<std::size_t>(labels[i]);
            best[c] = std::max(best[c], detections[i].score);
            ++count[c];
            sum[c * 4] += rects[i].x;
            sum[c * 4 + 1] += rects[i].y;
            sum[c * 4 + 2] += rects[i].width;
            sum[c * 4 + 3] += rects[i].height;
        }
        // OpenCV's output (with its counts) is the surviving classes in label order: walk both in step.
        std::vector<cv::Rect> cv_rects = to_cv(rects);
        std::vector<int> cv_counts;
        cv::groupRectangles(cv_rects, cv_counts, threshold, eps);
        std::vector<Detection> expected;
        std::size_t c = 0;
        for (std::size_t k = 0; k < cv_rects.size(); ++k) {
            for (; c < best.size(); ++c) {
                const float s = 1.f / static_cast<float>(count[c]);
                const auto avg = [&](std::size_t f) {
                    return cv::saturate_cast<int>(static_cast<float>(sum[c * 4 + f]) * s);
                };
                if (count[c] == cv_counts[k] && cv::Rect(avg(0), avg(1), avg(2), avg(3)) == cv_rects[k]) break;
            }
            REQUIRE(c < best.size());
            expected.push_back({from_cv({cv_rects[k]})[0], best[c++]});
        }
        const auto ours = cascade::group_detections(detections, threshold, eps);
        CAPTURE(trial);
        REQUIRE(ours.size() == expected.size());
        for (std::size_t k = 0; k < ours.size(); ++k) {
            CHECK(ours[k].rect == expected[k].rect);
            CHECK(ours[k].score == expected[k].score);
        }
    }
}

// NMS boxes (areas are exact integers):
//   A (0,0,20,10) area 200; S (5,0,20,10): intersection 15*10 = 150, union 200+200-150 = 250, IoU 0.6.
//   P (0,0,10,10) area 100; Q (0,0,10,4) inside it: intersection 40, union 100, IoU 0.4.
//   H (0,0,10,5) inside P: intersection 50, union 100, IoU exactly 0.5.
TEST_CASE("nms_iou: hand-computed IoU 0.6 and 0.4 against threshold 0.5") {
    const Rect a{0, 0, 20, 10}, s{5, 0, 20, 10}, p{0, 0, 10, 10}, q{0, 0, 10, 4}, h{0, 0, 10, 5};

    auto out = cascade::nms_iou({{s, 0.8f}, {a, 0.9f}}, 0.5f);  // IoU 0.6 > 0.5: the weaker one goes
    REQUIRE(out.size() == 1);
    CHECK(out[0].rect == a);
    CHECK(out[0].score == 0.9f);

    out = cascade::nms_iou({{s, 0.95f}, {a, 0.9f}}, 0.5f);  // the stronger one stays, whichever it is
    REQUIRE(out.size() == 1);
    CHECK(out[0].rect == s);

    out = cascade::nms_iou({{q, 0.8f}, {p, 0.9f}}, 0.5f);  // IoU 0.4 <= 0.5: both stay, by descending score
    REQUIRE(out.size() == 2);
    CHECK(out[0].rect == p);
    CHECK(out[1].rect == q);

    out = cascade::nms_iou({{q, 0.8f}, {p, 0.9f}}, 0.3f);  // 0.4 > 0.3: suppressed
    REQUIRE(out.size() == 1);
    CHECK(out[0].rect == p);

    out = cascade::nms_iou({{h, 0.8f}, {p, 0.9f}}, 0.5f);  // IoU exactly 0.5 is not above 0.5: kept
    CHECK(out.size() == 2);

    CHECK(cascade::nms_iou({}, 0.5f).empty());
}

TEST_CASE("nms_iou: equal scores are broken by Rect order, whatever the input order") {
    // T1 (0,0,10,10) and T2 (1,0,10,10): intersection 90, union 110, IoU 0.82. T1 < T2 (smaller x).
    const Rect t1{0, 0, 10, 10}, t2{1, 0, 10, 10};
    const std::vector<Detection> forward = {{t1, 1.f}, {t2, 1.f}}, backward = {{t2, 1.f}, {t1, 1.f}};
    for (const auto& input : {forward, backward}) {
        const auto out = cascade::nms_iou(input, 0.5f);
        REQUIRE(out.size() == 1);
        CHECK(out[0].rect == t1);
    }
}

// Greedy, not transitive: B (shifted 2) overlaps A with IoU 80/120 = 0.67 and is removed; C (shifted 4)
// overlaps A with 60/140 = 0.43 and B with 0.67, but B is gone, so C stays.
TEST_CASE("nms_iou: suppressed boxes suppress nothing") {
    const Rect a{0, 0, 10, 10}, b{2, 0, 10, 10}, c{4, 0, 10, 10};
    const auto out = cascade::nms_iou({{c, 0.7f}, {b, 0.8f}, {a, 0.9f}}, 0.5f);
    REQUIRE(out.size() == 2);
    CHECK(out[0].rect == a);
    CHECK(out[1].rect == c);
}
