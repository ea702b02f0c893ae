// An LBP cascade as the negative miner's classifier (train/negative_miner.hpp), evaluated by the detectors' own
// code (LbpFamily's planes and window, common/feature_family.hpp): a window is accepted when it passes every
// stage, whatever the cascade's sum policy. An empty cascade accepts every window.
#pragma once

#include <memory>

#include "common/cascade_eval.hpp"
#include "common/model.hpp"
#include "train/negative_miner.hpp"

namespace cascade::train::lbp {

class LbpWindowClassifier : public WindowClassifier {
public:
    explicit LbpWindowClassifier(const LbpCascade& cascade) : cascade_(cascade), view_(view_of(cascade)) {}

    std::unique_ptr<Level> prepare(const GrayImage& level) const override;

private:
    const LbpCascade& cascade_;
    const LbpCascadeView view_;
};

}  // namespace cascade::train::lbp
