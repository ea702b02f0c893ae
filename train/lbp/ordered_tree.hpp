// A weak learner deeper than a stump on ordered codes (bins of a scalar feature: Haar's, train/haar/
// haar_stage_features.hpp): opencv_traincascade's -maxDepth > 1, a CvBoostTree grown to that depth.
//
// Each node is fitted as a stump is (fit_subset_stump with ordered codes: the feature and cut of least
// weighted squared error over the node's samples, the boost type's leaves for its two sides); a side becomes
// a node in turn while the tree is shallower than max_depth, the side holds at least kMinNodeSamples samples
// (CvDTreeParams' min_sample_count) whose targets differ, and a cut separates them; otherwise it is a leaf
// with its side's value. The root always splits. Nodes are numbered breadth first and a child <= 0 is leaf
// -child: the order and convention in which OpenCV writes a tree (CvCascadeBoostTree::write) and common/
// model.hpp's HaarNode holds it, so a tree is written and evaluated as it was trained.
//
// Split criterion: the least squares of the stumps for every boost type. CvBoost's DEFAULT criterion differs
// for Discrete AdaBoost only (misclassification; least squares on y = +-1 equals its Gini, Real's criterion).
#pragma once

#include <vector>

#include "train/lbp/code_table.hpp"
#include "train/lbp/subset_stump.hpp"

namespace cascade::train::lbp {

constexpr int kMinNodeSamples = 10;

struct OrderedTree {
    struct Node {
        int feature = 0;  // in the code table
        int cut = kLbpCodes;  // codes below it go left
        int left = 0, right = 0;  // > 0: a node; <= 0: leaf -child
    };
    std::vector<Node> nodes;  // breadth first, the root first
    std::vector<float> leaves;

    float response(const CodeTable& codes, int slot) const {
        int at = 0;
        do {
            const Node& n = nodes[static_cast<std::size_t>(at)];
            at = codes.code(n.feature, slot) < n.cut ? n.left : n.right;
        } while (at > 0);
        return leaves[static_cast<std::size_t>(-at)];
    }
};

// The tree of at most max_depth (>= 1) levels of nodes fitted to `samples`; the result does not depend on
// `threads`.
OrderedTree grow_ordered_tree(const CodeTable& codes, const RegressionSamples& samples, BoostType type, int max_depth,
                              int threads);

}  // namespace cascade::train::lbp
