// A cascade as the negative miner's classifier (train/negative_miner.hpp), evaluated by the detectors' own
// code (its family's planes and window, common/feature_family.hpp): a window is accepted when the detector
// would accept it (it passes every stage, whatever the cascade's sum policy, and is not refused: a Haar
// window of too little contrast is refused even by a cascade without stages). An LBP cascade without stages
// accepts every window.
#pragma once

#include <memory>
#include <type_traits>

#include "common/cascade_eval.hpp"
#include "common/feature_family.hpp"
#include "common/model.hpp"
#include "train/negative_miner.hpp"

namespace cascade::train::lbp {

template <class Cascade>
class CascadeWindowClassifier : public WindowClassifier {
    using Family = typename FamilyOf<Cascade>::type;
    using View = typename Family::View;

    struct LevelPlanes : Level {
        explicit LevelPlanes(const View& v) : view(v) {}
        bool accepts(int x, int y) const override {
            const typename Family::Sampler sampler = Family::sampler(planes);
            int rejected_at = 0;
            double score = 0.0;
            return accept_window(view, typename Family::template Window<typename Family::Sampler>{view, sampler, x, y},
                                 rejected_at, score);
        }
        const View& view;
        typename Family::Planes planes;
    };

    struct AcceptAll : Level {
        bool accepts(int, int) const override { return true; }
    };

public:
    explicit CascadeWindowClassifier(const Cascade& cascade) : cascade_(cascade), view_(view_of(cascade)) {}

    std::unique_ptr<Level> prepare(const GrayImage& level) const override {
        if (cascade_.stages.empty() && std::is_same<Cascade, LbpCascade>::value) return std::make_unique<AcceptAll>();
        auto out = std::make_unique<LevelPlanes>(view_);
        Family::build(cascade_, level.view(), out->planes);
        return out;
    }

private:
    const Cascade& cascade_;
    const View view_;
};

using LbpWindowClassifier = CascadeWindowClassifier<LbpCascade>;

}  // namespace cascade::train::lbp
