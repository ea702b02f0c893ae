// cascade-eval's metrics on small cases whose answers are worked out by hand in the comments: the DET / FPPI
// sweep, the miss rate at a false-positive budget, the log-average miss rate and the matching of detections
// to ground-truth boxes.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "bench/eval/box_matching.hpp"
#include "bench/eval/miss_rate_curve.hpp"
#include "common/grouping.hpp"

using namespace cascade;
using namespace cascade::eval;

TEST_CASE("the sweep gives one point per distinct hit score, false alarms counted at or above it") {
    // 4 positives, 3 found with scores 3, 1, 2 (the fourth never); false alarms 2.5, 0.5, 2, 5 in 100 windows.
    //   t = 3: 1 hit -> miss 3/4 = 0.75; alarms >= 3: {5} -> 1/100 = 0.01
    //   t = 2: 2 hits -> miss 0.5;        alarms >= 2: {5, 2.5, 2} -> 0.03 (the tie at 2 counts)
    //   t = 1: 3 hits -> miss 0.25;       alarms >= 1: the same three -> 0.03
    const std::vector<CurvePoint> c = miss_rate_curve({3, 1, 2}, 4, {2.5, 0.5, 2, 5}, 100);
    REQUIRE(c.size() == 3);
    CHECK(c[0].threshold == 3);
    CHECK(c[0].miss_rate == doctest::Approx(0.75));
    CHECK(c[0].false_positives == doctest::Approx(0.01));
    CHECK(c[1].threshold == 2);
    CHECK(c[1].miss_rate == doctest::Approx(0.5));
    CHECK(c[1].false_positives == doctest::Approx(0.03));
    CHECK(c[2].threshold == 1);
    CHECK(c[2].miss_rate == doctest::Approx(0.25));
    CHECK(c[2].false_positives == doctest::Approx(0.03));

    // The miss rate within a budget: the best point at or below it, 1 when there is none.
    CHECK(miss_rate_at(c, 0.005) == 1.0);                   // no point reaches down to 0.005
    CHECK(miss_rate_at(c, 0.01) == doctest::Approx(0.75));  // exactly on the first point
    CHECK(miss_rate_at(c, 0.02) == doctest::Approx(0.75));
    CHECK(miss_rate_at(c, 0.03) == doctest::Approx(0.25));  // t = 1 costs no more alarms than t = 2
    CHECK(miss_rate_at(c, 1.0) == doctest::Approx(0.25));   // the fourth positive is never found
}

TEST_CASE("tied hit scores make one point") {
    // Hits 2, 2, 1 of 3 positives, one alarm at 2 in 10 units: t = 2 -> miss 1/3, 0.1; t = 1 -> miss 0, 0.1.
    const std::vector<CurvePoint> c = miss_rate_curve({2, 2, 1}, 3, std::vector<double>{2}, 10);
    REQUIRE(c.size() == 2);
    CHECK(c[0].miss_rate == doctest::Approx(1.0 / 3));
    CHECK(c[0].false_positives == doctest::Approx(0.1));
    CHECK(c[1].miss_rate == doctest::Approx(0.0));
    CHECK(c[1].false_positives == doctest::Approx(0.1));
}

TEST_CASE("log-average miss rate over nine FPPI points from 1e-2 to 1") {
    const std::vector<double> refs = log_average_references();
    REQUIRE(refs.size() == 9);
    CHECK(refs.front() == doctest::Approx(0.01));
    CHECK(refs[4] == doctest::Approx(0.1));
    CHECK(refs.back() == doctest::Approx(1.0));

    // 5 people in 8 images; hits 0.9, 0.8, 0.4, 0.2 (one person never found); false alarms 0.85, 0.5, 0.3.
    //   t = 0.9: miss 4/5 = 0.8, FPPI 0;   t = 0.8: miss 0.6, FPPI 1/8 = 0.125
    //   t = 0.4: miss 0.4, FPPI 2/8 = 0.25; t = 0.2: miss 0.2, FPPI 3/8 = 0.375
    // Reference points and the miss rate at each (best point with FPPI <= reference):
    //   0.01, 0.0178, 0.0316, 0.0562, 0.1 -> only the FPPI-0 point: 0.8 (five times)
    //   0.178 -> 0.6 (0.125 <= 0.178);  0.316 -> 0.4 (0.25);  0.562 and 1 -> 0.2 (0.375)
    // Geometric mean: (0.8^5 * 0.6 * 0.4 * 0.2^2)^(1/9) = 0.003145728^(1/9) = 0.52719...
    const std::vector<CurvePoint> c = miss_rate_curve({0.9, 0.8, 0.4, 0.2}, 5, {0.85, 0.5, 0.3}, 8);
    REQUIRE(c.size() == 4);
    CHECK(c[0].false_positives == 0.0);
    CHECK(c[3].false_positives == doctest::Approx(0.375));
    CHECK(log_average_miss_rate(c) == doctest::Approx(0.5271922517).epsilon(1e-9));

    // Nothing found: the miss rate is 1 everywhere, and so is its log-average.
    CHECK(miss_rate_curve({}, 5, {0.3, 0.1}, 8).empty());
    CHECK(log_average_miss_rate({}) == 1.0);

    // Everything found without a false alarm: each reference reads 0, clamped to 1e-10 as in Dollar's code.
    CHECK(log_average_miss_rate(miss_rate_curve({1, 1}, 2, std::vector<double>{}, 8)) == doctest::Approx(1e-10));
}

TEST_CASE("intersection over union of integer boxes") {
    // (0,0,10,10) and (5,0,10,10): overlap 5 x 10 = 50, union 100 + 100 - 50 = 150 -> 1/3.
    CHECK(iou({0, 0, 10, 10}, {5, 0, 10, 10}) == doctest::Approx(1.0 / 3));
    CHECK(iou({0, 0, 10, 10}, {10, 0, 10, 10}) == 0.0);  // touching edges share no pixel
    CHECK(iou({3, 4, 10, 20}, {3, 4, 10, 20}) == 1.0);
    // A 10x20 box and its top half: overlap 100, union 200 -> exactly 0.5.
    CHECK(iou({0, 0, 10, 20}, {0, 0, 10, 10}) == 0.5);
}

TEST_CASE("matching: one match per ground-truth box, greedy by score, PASCAL's IoU 0.5") {
    const std::vector<Rect> gt = {{0, 0, 10, 20}, {100, 0, 10, 20}};
    // d0 (0.9) equals gt0 -> hit.  d1 (0.8) one pixel off gt0, which is taken, and misses gt1 -> false alarm.
    // d2 (0.7) vs gt1: overlap 10 x 10 = 100, union 200 + 200 - 100 = 300 -> 1/3 < 0.5 -> false alarm.
    // d3 (0.95) vs gt1: overlap 8 x 20 = 160, union 400 - 160 = 240 -> 2/3 -> hit (taken first: best score).
    const std::vector<Detection> dets = {
        {{0, 0, 10, 20}, 0.9f}, {{1, 0, 10, 20}, 0.8f}, {{100, 10, 10, 20}, 0.7f}, {{102, 0, 10, 20}, 0.95f}};
    const ImageMatches m = match_detections(dets, gt);
    CHECK(m.ground_truth == 2);
    REQUIRE(m.hit_scores.size() == 2);
    CHECK(m.hit_scores[0] == doctest::Approx(0.95));
    CHECK(m.hit_scores[1] == doctest::Approx(0.9));
    REQUIRE(m.false_alarm_scores.size() == 2);
    CHECK(m.false_alarm_scores[0] == doctest::Approx(0.8));
    CHECK(m.false_alarm_scores[1] == doctest::Approx(0.7));
}

TEST_CASE("matching: the higher score takes the box even when a lower one fits better") {
    // gt (0,0,10,20). a (0.5) equals it (IoU 1); b (0.6) is its top 12 rows: overlap 120, union 200 -> 0.6.
    // b is visited first and takes the box; a is then a false alarm.
    const ImageMatches m = match_detections({{{0, 0, 10, 20}, 0.5f}, {{0, 0, 10, 12}, 0.6f}}, {{0, 0, 10, 20}});
    REQUIRE(m.hit_scores.size() == 1);
    CHECK(m.hit_scores[0] == doctest::Approx(0.6));
    REQUIRE(m.false_alarm_scores.size() == 1);
    CHECK(m.false_alarm_scores[0] == doctest::Approx(0.5));
}

TEST_CASE("matching: a detection takes the unmatched box it overlaps most") {
    // gt0 (0,0,10,20), gt1 (4,0,10,20); d (3,0,10,20) overlaps gt0 by 7 x 20 = 140 (IoU 140/260 = 0.54) and
    // gt1 by 9 x 20 = 180 (IoU 180/220 = 0.82): it takes gt1. e (0,0,10,20), lower score, then takes gt0.
    const ImageMatches m =
        match_detections({{{3, 0, 10, 20}, 2.f}, {{0, 0, 10, 20}, 1.f}}, {{0, 0, 10, 20}, {4, 0, 10, 20}});
    CHECK(m.hit_scores.size() == 2);
    CHECK(m.false_alarm_scores.empty());
    // An IoU of exactly 0.5 matches (PASCAL: "exceeds or equals 50%"); just below does not.
    CHECK(match_detections({{{0, 0, 10, 10}, 1.f}}, {{0, 0, 10, 20}}).hit_scores.size() == 1);
    CHECK(match_detections({{{0, 0, 10, 9}, 1.f}}, {{0, 0, 10, 20}}).hit_scores.empty());
}

TEST_CASE("matching results feed the FPPI sweep") {
    // Image 1: one person, found at 0.9, one false alarm at 0.3. Image 2: two people, one found at 0.5, a
    // false alarm at 0.7. 3 people, 2 images:
    //   t = 0.9: miss 2/3, FPPI 0;  t = 0.5: miss 1/3, alarms >= 0.5: {0.7} -> FPPI 0.5
    const ImageMatches a = match_detections({{{0, 0, 10, 20}, 0.9f}, {{50, 0, 10, 20}, 0.3f}}, {{0, 0, 10, 20}});
    const ImageMatches b =
        match_detections({{{0, 0, 10, 20}, 0.5f}, {{200, 0, 10, 20}, 0.7f}}, {{0, 0, 10, 20}, {100, 0, 10, 20}});
    std::vector<double> hits = a.hit_scores, alarms = a.false_alarm_scores;
    hits.insert(hits.end(), b.hit_scores.begin(), b.hit_scores.end());
    alarms.insert(alarms.end(), b.false_alarm_scores.begin(), b.false_alarm_scores.end());
    const std::vector<CurvePoint> c = miss_rate_curve(hits, a.ground_truth + b.ground_truth, alarms, 2);
    REQUIRE(c.size() == 2);
    CHECK(c[0].miss_rate == doctest::Approx(2.0 / 3));
    CHECK(c[0].false_positives == 0.0);
    CHECK(c[1].miss_rate == doctest::Approx(1.0 / 3));
    CHECK(c[1].false_positives == doctest::Approx(0.5));
}

TEST_CASE("false alarms given as counts give the same curve as listed one by one") {
    // The first case's alarms 2.5, 0.5, 2, 5 as counts: {5: 1, 2.5: 1, 2: 1, 0.5: 1}, and the same rounded
    // down to the hit scores below them ({3: 1, 2: 2}; 0.5 is below every hit and drops out): 0.01, 0.03, 0.03.
    const std::vector<CurvePoint> rounded = miss_rate_curve({3, 1, 2}, 4, std::vector<ScoreCount>{{3, 1}, {2, 2}}, 100);
    REQUIRE(rounded.size() == 3);
    CHECK(rounded[0].false_positives == doctest::Approx(0.01));
    CHECK(rounded[1].false_positives == doctest::Approx(0.03));
    CHECK(rounded[2].false_positives == doctest::Approx(0.03));
    CHECK(rounded[2].miss_rate == doctest::Approx(0.25));
}
