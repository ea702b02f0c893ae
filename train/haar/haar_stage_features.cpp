#include "train/haar/haar_stage_features.hpp"

#include <algorithm>
#include <sstream>
#include <string>
#include <unordered_map>

#include "common/error.hpp"
#include "common/haar_eval.hpp"
#include "common/haar_integrals.hpp"
#include "common/parallel.hpp"
#include "train/lbp/lbp_window_classifier.hpp"

namespace cascade::train::haar {

namespace {

constexpr int kEdges = kLbpCodes - 1;

class HaarStageFeatures : public lbp::StageFeatures {
public:
    HaarStageFeatures(const lbp::StageTrainConfig& config, HaarMode mode, const lbp::LbpTrainingData& data)
        : settings_(haar_settings(config, mode, data)),
          pool_(sample_haar_features(config.window, mode, config.features, config.seed)) {
        for (int f = 0; f < size(); ++f) index_[feature_key(pool_[static_cast<std::size_t>(f)])] = f;
        cascade.window = config.window;
        cascade.policy = SumPolicy::per_stage;
    }
    int size() const override { return static_cast<int>(pool_.size()); }
    bool ordered_codes() const override { return true; }

    void fill(lbp::CodeTable& codes, const std::vector<int>& slots, const std::vector<GrayImage>& windows,
              int threads) override {
        const int n = static_cast<int>(windows.size());
        const bool first = edges_.empty();
        std::vector<float> values(first ? static_cast<std::size_t>(size()) * n : 0);
        if (first) edges_.resize(static_cast<std::size_t>(size()) * kEdges);
        parallel_for(n, [&](int i) {
            HaarIntegrals planes;
            compute_haar_integrals(windows[static_cast<std::size_t>(i)].view(), planes);
            const HaarCascadeView view = view_of(cascade);
            const HaarIntegralView sampler = planes.view();
            const HaarWindow<HaarIntegralView> window(view, sampler, 0, 0);
            for (int f = 0; f < size(); ++f) {
                const float v = window.refused ? 0.f : window.feature_value(pool_[static_cast<std::size_t>(f)]);
                if (first)
                    values[static_cast<std::size_t>(f) * n + i] = v;
                else
                    codes.set(f, slots[static_cast<std::size_t>(i)], code(f, v));
            }
        }, threads);
        if (!first) return;
        parallel_for(size(), [&](int f) {
            float* v = values.data() + static_cast<std::size_t>(f) * n;
            std::vector<float> sorted(v, v + n);
            std::sort(sorted.begin(), sorted.end());
            for (int k = 0; k < kEdges; ++k)
                edges_[static_cast<std::size_t>(f) * kEdges + k] =
                    sorted[static_cast<std::size_t>((static_cast<long long>(k) + 1) * n / kLbpCodes)];
            for (int i = 0; i < n; ++i) codes.set(f, slots[static_cast<std::size_t>(i)], code(f, v[i]));
        }, threads);
    }

    bool refused(const GrayImage& window) const override {
        HaarIntegrals planes;
        compute_haar_integrals(window.view(), planes);
        const HaarCascadeView view = view_of(cascade);
        const HaarIntegralView sampler = planes.view();
        return HaarWindow<HaarIntegralView>(view, sampler, 0, 0).refused;
    }

    // A stump's left side (values below the edge at its cut) gives code 0's response, its right code 255's; a
    // tree's nodes and leaves are the model's as they are (the same numbering).
    void append(const lbp::BoostedStage& boosted) override {
        const int first = static_cast<int>(cascade.weaks.size());
        for (const lbp::StageWeak& w : boosted.weaks) {
            const int first_node = static_cast<int>(cascade.nodes.size());
            cascade.weaks.push_back({first_node, 0, static_cast<int>(cascade.leaves.size())});
            if (w.tree.nodes.empty()) {
                cascade.nodes.push_back(node(w.feature, w.cut, 0, -1));
                cascade.leaves.push_back(w.responses[0]);
                cascade.leaves.push_back(w.responses[kLbpCodes - 1]);
            } else {
                for (const lbp::OrderedTree::Node& n : w.tree.nodes)
                    cascade.nodes.push_back(node(n.feature, n.cut, n.left, n.right));
                cascade.leaves.insert(cascade.leaves.end(), w.tree.leaves.begin(), w.tree.leaves.end());
            }
            cascade.weaks.back().node_count = static_cast<int>(cascade.nodes.size()) - first_node;
        }
        cascade.stages.push_back({first, static_cast<int>(boosted.weaks.size()), boosted.threshold});
    }

    std::unique_ptr<WindowClassifier> classifier() const override {
        return std::make_unique<lbp::CascadeWindowClassifier<HaarCascade>>(cascade);
    }

    bool checkpoints() const override { return true; }
    void save_checkpoint(const std::string& path, const lbp::StageRunState& run) const override {
        lbp::save_checkpoint(path, lbp::TrainingState<HaarCascade>{cascade, {}, run.cursor, run.acceptance, 0,
                                                                   run.scanned, run.mined, run.finished},
                             settings_);
    }
    std::optional<lbp::StageRunState> resume(const std::string& path, std::vector<lbp::BoostedStage>& stages) override {
        const auto state = lbp::load_checkpoint<HaarCascade>(path, settings_);
        if (!state) return std::nullopt;
        if (state->cascade.policy != SumPolicy::per_stage || !(state->cascade.window == cascade.window))
            throw InputError(path, "its cascade is not a per-stage cascade of this window");
        cascade = state->cascade;
        for (const Stage& stage : cascade.stages) {
            lbp::BoostedStage boosted;
            boosted.threshold = stage.threshold;
            for (int i = stage.first; i < stage.first + stage.count; ++i) boosted.weaks.push_back(weak_of(i, path));
            stages.push_back(std::move(boosted));
        }
        return lbp::StageRunState{state->cursor, state->reach_at_refill, state->windows_scanned,
                                  state->negatives_mined, state->finished};
    }

    HaarCascade cascade;

private:
    static lbp::TrainingSettings haar_settings(const lbp::StageTrainConfig& config, HaarMode mode,
                                               const lbp::LbpTrainingData& data) {
        lbp::TrainingSettings out = lbp::stage_training_settings(config, data);
        out.front().second = "haar";
        out.insert(out.begin() + 1, {"haar-mode", opencv_mode_name(mode)});
        return out;
    }

    static std::string feature_key(const HaarFeature& f) {
        std::ostringstream key;
        key << f.tilted;
        for (const HaarRect& r : f.rects) key << ' ' << r.x << ' ' << r.y << ' ' << r.width << ' ' << r.height << ' ' << r.weight;
        return key.str();
    }

    // Weak learner i of a checkpoint's cascade as the stage trainer's stump or tree: its features' indices in
    // the pool, its thresholds' bin edges (the first equal one: equal edges bound no code between them) as cuts.
    lbp::StageWeak weak_of(int i, const std::string& path) const {
        const HaarTree& tree = cascade.weaks[static_cast<std::size_t>(i)];
        const auto where = "weak learner " + std::to_string(i);
        lbp::StageWeak weak;
        for (int k = 0; k < tree.node_count; ++k) {
            const HaarNode& n = cascade.nodes[static_cast<std::size_t>(tree.first_node + k)];
            const auto it = index_.find(feature_key(n.feature));
            if (it == index_.end()) throw InputError(path, where + " has a feature that is not in the pool");
            const float* e = edges_.data() + static_cast<std::size_t>(it->second) * kEdges;
            const float* at = std::find(e, e + kEdges, n.threshold);
            if (at == e + kEdges) throw InputError(path, where + " has a threshold that is not a bin edge of its feature");
            weak.tree.nodes.push_back({it->second, static_cast<int>(at - e) + 1, n.left, n.right});
        }
        weak.tree.leaves.assign(cascade.leaves.begin() + tree.first_leaf,
                                cascade.leaves.begin() + tree.first_leaf + tree.node_count + 1);
        if (tree.node_count > 1) return weak;
        weak.feature = weak.tree.nodes[0].feature;
        weak.cut = weak.tree.nodes[0].cut;
        for (int c = 0; c < kLbpCodes; ++c)
            weak.responses[static_cast<std::size_t>(c)] = weak.tree.leaves[c < weak.cut ? 0 : 1];
        weak.tree = {};
        return weak;
    }

    HaarNode node(int feature, int cut, int left, int right) const {
        const int edge = std::clamp(cut, 1, kEdges) - 1;
        return {pool_[static_cast<std::size_t>(feature)], edges_[static_cast<std::size_t>(feature) * kEdges + edge],
                left, right};
    }

    // The number of edges at most v: values below edge k have codes up to k.
    std::uint8_t code(int f, float v) const {
        const float* e = edges_.data() + static_cast<std::size_t>(f) * kEdges;
        return static_cast<std::uint8_t>(std::upper_bound(e, e + kEdges, v) - e);
    }

    const lbp::TrainingSettings settings_;
    const std::vector<HaarFeature> pool_;
    std::unordered_map<std::string, int> index_;
    std::vector<float> edges_;  // kEdges per feature, ascending
};

}  // namespace

HaarStageResult train_haar_stages(const lbp::StageTrainConfig& config, HaarMode mode, const lbp::LbpTrainingData& data,
                                  lbp::StageTrainingObserver& observer) {
    lbp::validate(config);
    HaarStageFeatures features(config, mode, data);
    HaarStageResult result{lbp::train_stages(config, data, features, observer), {}};
    result.cascade = std::move(features.cascade);
    return result;
}

}  // namespace cascade::train::haar
