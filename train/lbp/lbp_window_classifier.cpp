#include "train/lbp/lbp_window_classifier.hpp"

#include "common/feature_family.hpp"

namespace cascade::train::lbp {

namespace {

struct LevelPlanes : WindowClassifier::Level {
    explicit LevelPlanes(const LbpCascadeView& v) : view(v) {}
    bool accepts(int x, int y) const override {
        if (view.num_stages == 0) return true;
        const LbpFamily::Sampler sampler = LbpFamily::sampler(planes);
        int rejected_at = 0;
        double score = 0.0;
        return accept_window(view, LbpFamily::Window<LbpFamily::Sampler>{view, sampler, x, y}, rejected_at, score);
    }
    const LbpCascadeView& view;
    LbpFamily::Planes planes;
};

}  // namespace

std::unique_ptr<WindowClassifier::Level> LbpWindowClassifier::prepare(const GrayImage& level) const {
    auto out = std::make_unique<LevelPlanes>(view_);
    if (!cascade_.stages.empty()) LbpFamily::build(level.view(), out->planes);
    return out;
}

}  // namespace cascade::train::lbp
