// grow_ordered_tree (train/lbp/ordered_tree.hpp) on hand-made code tables whose best trees are known: an XOR
// of two features that no stump separates and a depth-2 tree does, nodes numbered breadth first as OpenCV
// writes them, pure and small sides left as leaves, depth 1 equal to the stump, and no dependence on threads.
#include <doctest/doctest.h>

#include <array>
#include <vector>

#include "train/lbp/ordered_tree.hpp"

using namespace cascade;
using namespace cascade::train::lbp;

namespace {

// Samples over features 0 and 1 (and 2, a distractor: its codes are the slot's parity, unrelated to labels)
// in cells {a, b, t, n}: n samples with codes 40 or 200 (a, b = 0 or 1) for features 0 and 1 and target t.
// The cells' sizes make feature 0 the best root split, so that no tie is left to rounding.
struct Data {
    CodeTable codes;
    RegressionSamples samples;
};

Data make(const std::vector<std::array<int, 4>>& cells) {
    Data d;
    int n = 0;
    for (const auto& cell : cells) n += cell[3];
    d.codes = CodeTable(3, n);
    int slot = 0;
    for (const auto& cell : cells)
        for (int k = 0; k < cell[3]; ++k, ++slot) {
            d.codes.set(0, slot, static_cast<std::uint8_t>(cell[0] ? 200 : 40));
            d.codes.set(1, slot, static_cast<std::uint8_t>(cell[1] ? 200 : 40));
            d.codes.set(2, slot, static_cast<std::uint8_t>(slot % 2 ? 150 : 90));
            d.samples.slots.push_back(slot);
            d.samples.targets.push_back(cell[2]);
            d.samples.weights.push_back(1.0 / n);
        }
    return d;
}

}  // namespace

TEST_CASE("an XOR of two features: a depth-2 tree separates it exactly, numbered breadth first") {
    const Data d = make({{0, 0, -1, 20}, {0, 1, 1, 22}, {1, 0, 1, 20}, {1, 1, -1, 24}});
    const SubsetStump stump = fit_subset_stump(d.codes, d.samples, BoostType::gentle, 1, true);
    CHECK(stump.loss > 0.99);  // no stump helps: each side stays about half positive

    const OrderedTree tree = grow_ordered_tree(d.codes, d.samples, BoostType::gentle, 2, 1);
    REQUIRE(tree.nodes.size() == 3);
    REQUIRE(tree.leaves.size() == 4);
    CHECK(tree.nodes[0].left == 1);
    CHECK(tree.nodes[0].right == 2);
    for (int n : {1, 2}) {
        CHECK(tree.nodes[static_cast<std::size_t>(n)].left <= 0);
        CHECK(tree.nodes[static_cast<std::size_t>(n)].right <= 0);
    }
    // Leaves are numbered in the order the breadth-first walk meets them: node 1's two, then node 2's.
    CHECK(tree.nodes[1].left == 0);
    CHECK(tree.nodes[1].right == -1);
    CHECK(tree.nodes[2].left == -2);
    CHECK(tree.nodes[2].right == -3);
    CHECK(tree.nodes[0].feature == 0);
    CHECK(tree.nodes[1].feature == 1);
    CHECK(tree.nodes[2].feature == 1);
    for (std::size_t i = 0; i < d.samples.slots.size(); ++i)
        CHECK(tree.response(d.codes, d.samples.slots[i]) == doctest::Approx(d.samples.targets[i]));
}

TEST_CASE("depth 1 is the stump, and deeper trees stop at pure sides, small sides and max depth") {
    // Feature 0 high: all positive (pure); feature 0 low: feature 1 decides.
    const Data d = make({{1, 0, 1, 30}, {1, 1, 1, 20}, {0, 0, -1, 20}, {0, 1, 1, 20}});
    const SubsetStump stump = fit_subset_stump(d.codes, d.samples, BoostType::real, 1, true);
    const OrderedTree one = grow_ordered_tree(d.codes, d.samples, BoostType::real, 1, 1);
    REQUIRE(one.nodes.size() == 1);
    CHECK(one.nodes[0].feature == stump.feature);
    CHECK(one.nodes[0].cut == stump.cut);
    CHECK(one.leaves == std::vector<float>{stump.responses[0], stump.responses[kLbpCodes - 1]});

    const OrderedTree tree = grow_ordered_tree(d.codes, d.samples, BoostType::real, 5, 1);
    REQUIRE(tree.nodes.size() == 2);  // the pure side is a leaf; below node 1 every side is pure
    CHECK(tree.nodes[0].feature == 0);
    CHECK(tree.nodes[0].left == 1);   // feature 0 low: mixed, split on feature 1
    CHECK(tree.nodes[0].right == 0);  // feature 0 high: leaf 0
    CHECK(tree.nodes[1].feature == 1);
    CHECK(tree.leaves.size() == 3);
    CHECK(tree.leaves[0] > 0.f);

    // The mixed side with fewer samples than a node needs stays a leaf.
    static_assert(kMinNodeSamples == 10, "the cells below have 8 samples on the mixed side");
    const Data small = make({{1, 0, 1, 6}, {1, 1, 1, 4}, {0, 0, -1, 4}, {0, 1, 1, 4}});
    CHECK(grow_ordered_tree(small.codes, small.samples, BoostType::real, 5, 1).nodes.size() == 1);
}

TEST_CASE("the tree does not depend on the number of threads") {
    const Data d = make({{0, 0, -1, 30}, {0, 1, 1, 25}, {1, 0, 1, 35}, {1, 1, -1, 30}, {1, 1, 1, 12}});
    for (const BoostType type : {BoostType::gentle, BoostType::discrete, BoostType::real, BoostType::logit}) {
        const OrderedTree one = grow_ordered_tree(d.codes, d.samples, type, 3, 1);
        const OrderedTree two = grow_ordered_tree(d.codes, d.samples, type, 3, 2);
        REQUIRE(one.nodes.size() == two.nodes.size());
        for (std::size_t i = 0; i < one.nodes.size(); ++i) {
            CHECK(one.nodes[i].feature == two.nodes[i].feature);
            CHECK(one.nodes[i].cut == two.nodes[i].cut);
            CHECK(one.nodes[i].left == two.nodes[i].left);
            CHECK(one.nodes[i].right == two.nodes[i].right);
        }
        CHECK(one.leaves == two.leaves);
    }
}
