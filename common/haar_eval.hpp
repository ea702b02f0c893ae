// Haar-feature evaluation, written once for host and device, exactly as OpenCV 4.6's HaarEvaluator and
// predictOrdered / predictOrderedStump compute it (modules/objdetect/src/cascadedetect.*):
//   - the window's variance normalisation (HaarEvaluator::setWindow), over the rectangle (1, 1, w - 2, h - 2):
//     nf = area * sqsum - sum * sum in double (sqsum read as unsigned); nf > 0: factor = (float)(1 / sqrt(nf)),
//     and the window is refused when area * factor >= 0.1 (too little contrast); nf <= 0: refused;
//   - a feature's value (OptFeature::calc): w0 * s0 + w1 * s1 in float, + w2 * s2 when w2 != 0, each pixel sum
//     s an int converted to float; times the window's factor, in float;
//   - a tree (predictOrdered): from node 0, left when the value is below the node's threshold, until a leaf.
// A refused window is rejected before any stage (run_stages never sees it): OpenCV returns -1 for it, which
// its scan does not treat as a first-stage rejection, so the next position is not skipped (kWindowRefused).
//
// Exactness: each float or double step is one IEEE operation rounded to nearest in OpenCV's order
// (common/exact_math.hpp), as OpenCV's own build (SSE, no FMA) computes it.
//
// Sampler: HaarIntegralView (common/haar_integrals.hpp) or any type with the same three members, each with
// at(x, y) -> uint32.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "common/cascade_eval.hpp"
#include "common/exact_math.hpp"
#include "common/hd.hpp"
#include "common/integral_view.hpp"
#include "common/model.hpp"

namespace cascade {

struct HaarCascadeView {
    Size window;
    SumPolicy policy = SumPolicy::per_stage;
    int num_stages = 0;
    const Stage* stages = nullptr;
    const HaarTree* weaks = nullptr;
    const HaarNode* nodes = nullptr;
    const float* leaves = nullptr;
};

inline HaarCascadeView view_of(const HaarCascade& c) {
    return {c.window,           c.policy,        static_cast<int>(c.stages.size()), c.stages.data(), c.weaks.data(),
            c.nodes.data(), c.leaves.data()};
}

// Pixel sum of one rectangle of the window whose top-left corner is the sampler's origin, as OpenCV's int.
// Each corner is one int index (dy * stride + dx) off the window's origin: the compiler shares r.y * stride
// between a rectangle's corners, where absolute 64-bit addresses per corner cost about ten instructions each.
template <class Sampler>
CASCADE_HD int haar_rect_sum(const Sampler& s, HaarRect r, bool tilted) {
    const int x = r.x, y = r.y, w = r.width, h = r.height;
    if (tilted)  // CV_TILTED_OFS: (x, y), (x - h, y + h), (x + w, y + w), (x + w - h, y + w + h)
        return static_cast<int>(s.tilted.at(x, y) - s.tilted.at(x - h, y + h) - s.tilted.at(x + w, y + w) +
                                s.tilted.at(x + w - h, y + w + h));
    return static_cast<int>(s.sums.at(x, y) - s.sums.at(x + w, y) - s.sums.at(x, y + h) + s.sums.at(x + w, y + h));
}

// Whether a sampler reads tilted sums: one with `static constexpr bool kTilted = false` serves only cascades
// without tilted features (the GPU's for such a cascade, which has no tilted table), and its windows skip the
// test of each feature's kind. Any other sampler: yes.
template <class Sampler, class = void>
struct ReadsTilted : std::true_type {};
template <class Sampler>
struct ReadsTilted<Sampler, std::void_t<decltype(Sampler::kTilted)>> : std::bool_constant<Sampler::kTilted> {};

// A table moved so that its (x, y) is (0, 0), found by argument-dependent lookup beside each sampler's tables:
// the CPU's here, the GPU's in gpu/haar_cascade_gpu.cu.
CASCADE_HD IntegralView shifted(const IntegralView& t, int x, int y) { return {t.origin(x, y), t.stride}; }

// Whether adding a stage's leaves in any order gives the same double: true when every partial sum is exact.
// Each leaf is a float, a multiple of its own unit in the last place, so every partial sum is a multiple of the
// smallest such unit g and at most S (the sum of each tree's largest |leaf| over the stage, over the whole
// cascade for a running sum) in magnitude: exact when S <= 2^53 g. OpenCV's Haar cascades need 34-46 of the 53
// bits. Then the GPU may add a stage's responses side by side and still equal the CPU's sum in order.
inline bool exact_stage_sums(const HaarCascade& c) {
    double g = 1.0, bound = 0.0, largest = 0.0;
    for (const Stage& s : c.stages) {
        double stage_bound = 0.0;
        for (int t = s.first; t < s.first + s.count; ++t) {
            const HaarTree& tree = c.weaks[static_cast<std::size_t>(t)];
            double most = 0.0;
            for (int k = 0; k <= tree.node_count; ++k) {
                const float leaf = c.leaves[static_cast<std::size_t>(tree.first_leaf + k)];
                if (leaf == 0.f) continue;
                int e = 0;
                std::frexp(leaf, &e);
                g = std::min(g, std::ldexp(1.0, e - 24));
                most = std::max(most, static_cast<double>(std::fabs(leaf)));
            }
            stage_bound += most;
        }
        bound += stage_bound;
        largest = std::max(largest, stage_bound);
    }
    return (c.policy == SumPolicy::running ? bound : largest) <= std::ldexp(g, 53);
}

// A sampler may keep the variance factors it has computed (the GPU's: the first group computes every window's,
// later groups read a survivor's instead of its eight corners and the double square root). The CPU's keeps none;
// the GPU's overloads beside its tables are found by argument-dependent lookup. Only windows not refused are
// kept, and a kept factor is the one computed, bit for bit.
template <class Sampler>
CASCADE_HD bool kept_factor(const Sampler&, int, int, float&) {
    return false;
}
template <class Sampler>
CASCADE_HD void keep_factor(const Sampler&, int, int, float) {}

// The weak learners of a Haar cascade for the window at (x, y); constructing it computes the window's
// variance normalisation factor and whether the window is refused (or takes the factor its sampler kept). It
// reads through `sampler` moved to the window's origin (shifted(table, x, y)), so that every corner is an offset
// from it.
template <class Sampler>
struct HaarWindow {
    const HaarCascadeView& cascade;
    Sampler sampler;  // the tables with the window's top-left corner at (0, 0)
    float factor = 1.f;
    bool refused = true;

    CASCADE_HD HaarWindow(const HaarCascadeView& c, const Sampler& s, int wx, int wy)
        : cascade(c), sampler{shifted(s.sums, wx, wy), shifted(s.squares, wx, wy), shifted(s.tilted, wx, wy)} {
        using namespace exact;
        if (kept_factor(s, wx, wy, factor)) {
            refused = false;
            return;
        }
        const auto& t = sampler;
        const int nw = c.window.width - 2, nh = c.window.height - 2;  // the rectangle (1, 1, nw, nh)
        const int sum = static_cast<int>(t.sums.at(1, 1) - t.sums.at(1 + nw, 1) - t.sums.at(1, 1 + nh) +
                                         t.sums.at(1 + nw, 1 + nh));
        const std::uint32_t squares =
            t.squares.at(1, 1) - t.squares.at(1 + nw, 1) - t.squares.at(1, 1 + nh) + t.squares.at(1 + nw, 1 + nh);
        const double area = static_cast<double>(nw * nh);
        const double s_sum = static_cast<double>(sum);
        double nf = sub(mul(area, static_cast<double>(squares)), mul(s_sum, s_sum));
        if (nf > 0.) {
            nf = exact::sqrt(nf);
            factor = static_cast<float>(reciprocal(nf));
            refused = !(mul(area, static_cast<double>(factor)) < 1e-1);
            if (!refused) keep_factor(s, wx, wy, factor);
        }
    }

    CASCADE_HD float feature_value(const HaarFeature& f) const {
        using namespace exact;
        const bool tilted = ReadsTilted<Sampler>::value && f.tilted != 0;
        const auto term = [&](int k) {
            return mul(f.rects[k].weight, static_cast<float>(haar_rect_sum(sampler, f.rects[k], tilted)));
        };
        float v = add(term(0), term(1));
        if (f.rects[2].weight != 0.f) v = add(v, term(2));
        return mul(v, factor);
    }

    CASCADE_HD float operator()(int i) const {
        const HaarTree t = cascade.weaks[i];
        if (t.node_count == 1) {
            // A stump (every tree of frontalface_default): its node and both leaves are read before the comparison
            // picks one, the same leaf as the loop below. On the GPU a lane of a team (each lane on its own tree)
            // then waits on one dependent load less: groups 3-5 at 1080p 0.133 / 0.114 / 0.113 -> 0.115 / 0.104 /
            // 0.091 ms (docs/benchmarks.md); no slower where the threads of a warp walk the same trees.
            const HaarNode& node = cascade.nodes[t.first_node];
            const float below = cascade.leaves[t.first_leaf - node.left];
            const float above = cascade.leaves[t.first_leaf - node.right];
            return feature_value(node.feature) < node.threshold ? below : above;
        }
        int idx = 0;
        do {
            const HaarNode& node = cascade.nodes[t.first_node + idx];
            idx = feature_value(node.feature) < node.threshold ? node.left : node.right;
        } while (idx > 0);
        return cascade.leaves[t.first_leaf - idx];
    }
};

}  // namespace cascade
