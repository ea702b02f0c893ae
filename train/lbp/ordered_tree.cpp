#include "train/lbp/ordered_tree.hpp"

#include <algorithm>
#include <deque>

namespace cascade::train::lbp {

namespace {

// A node waiting for its children: its samples, its fitted split and its depth (the root's is 1).
struct OpenNode {
    RegressionSamples samples;
    SubsetStump fit;
    int depth = 1;
};

// The samples of `s` on one side of the cut.
RegressionSamples side_of(const CodeTable& codes, const RegressionSamples& s, const SubsetStump& fit, bool right) {
    RegressionSamples out;
    const std::uint8_t* code = codes.feature(fit.feature);
    for (std::size_t i = 0; i < s.slots.size(); ++i) {
        if ((code[s.slots[i]] >= fit.cut) != right) continue;
        out.slots.push_back(s.slots[i]);
        out.targets.push_back(s.targets[i]);
        out.weights.push_back(s.weights[i]);
    }
    return out;
}

bool mixed(const RegressionSamples& s) {
    return std::any_of(s.targets.begin(), s.targets.end(), [&](double t) { return t != s.targets.front(); });
}

}  // namespace

OrderedTree grow_ordered_tree(const CodeTable& codes, const RegressionSamples& samples, BoostType type, int max_depth,
                              int threads) {
    OrderedTree tree;
    std::deque<OpenNode> open;
    open.push_back({samples, fit_subset_stump(codes, samples, type, threads, true), 1});
    int numbered = 1;  // nodes given an index so far, the root's 0 included
    while (!open.empty()) {
        const OpenNode node = std::move(open.front());
        open.pop_front();
        OrderedTree::Node out{node.fit.feature, node.fit.cut, 0, 0};
        for (const bool right : {false, true}) {
            RegressionSamples side = side_of(codes, node.samples, node.fit, right);
            int& child = right ? out.right : out.left;
            if (node.depth < max_depth && static_cast<int>(side.slots.size()) >= kMinNodeSamples && mixed(side)) {
                SubsetStump fit = fit_subset_stump(codes, side, type, threads, true);
                if (fit.cut < kLbpCodes) {
                    child = numbered++;
                    open.push_back({std::move(side), fit, node.depth + 1});
                    continue;
                }
            }
            child = -static_cast<int>(tree.leaves.size());
            tree.leaves.push_back(node.fit.responses[right ? kLbpCodes - 1 : 0]);
        }
        tree.nodes.push_back(out);
    }
    return tree;
}

}  // namespace cascade::train::lbp
