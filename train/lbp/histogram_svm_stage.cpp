#include "train/lbp/histogram_svm_stage.hpp"

#include <algorithm>

#include "cli/usage_error.hpp"
#include "common/lbp_uniform.hpp"
#include "common/parallel.hpp"
#include "train/lbp/lbp_window_classifier.hpp"
#include "train/negative_miner.hpp"

namespace cascade::train::lbp {

namespace {

constexpr float kMargin = -1.f;  // the SVM's loss counts negatives scoring above this

// The stage's layout in `window`: as many cells as fit.
LbpHistogramSvm layout_of(Size window, const HistogramSvmOptions& o) {
    LbpHistogramSvm svm;
    svm.cell = o.cell;
    svm.step = o.step;
    svm.cells_x = (window.width - o.cell) / o.step + 1;
    svm.cells_y = (window.height - o.cell) / o.step + 1;
    return svm;
}

struct Problem {
    int dims = 0;
    std::vector<float> x;
    std::vector<int> labels;

    // Each window's features, computed on all cores, appended in order.
    void add(const std::vector<GrayImage>& windows, int offset, int label, const LbpHistogramSvm& layout,
             int threads) {
        std::vector<std::vector<float>> f(windows.size());
        parallel_for(
            static_cast<int>(windows.size()),
            [&](int i) { f[static_cast<std::size_t>(i)] = histogram_features(windows[static_cast<std::size_t>(i)], offset, offset, layout); },
            threads);
        for (const std::vector<float>& v : f) {
            x.insert(x.end(), v.begin(), v.end());
            labels.push_back(label);
        }
    }
};

// The prefix's windows (the stages of `cascade` accept them), at or above the SVM's margin where it has one.
std::vector<GrayImage> accepted_only(const LbpCascade& cascade, const std::vector<GrayImage>& windows, int ring,
                                     int threads) {
    const LbpWindowClassifier classifier(cascade);
    std::vector<char> keep(windows.size());
    parallel_for(
        static_cast<int>(windows.size()),
        [&](int i) { keep[static_cast<std::size_t>(i)] = classifier.prepare(windows[static_cast<std::size_t>(i)])->accepts(ring, ring); },
        threads);
    std::vector<GrayImage> out;
    for (std::size_t i = 0; i < windows.size(); ++i)
        if (keep[i]) out.push_back(windows[i]);
    return out;
}

}  // namespace

void validate(const HistogramSvmOptions& o) {
    if (o.svm.c <= 0.0) throw cli::UsageError("--final-svm-c", "must be positive");
    if (o.svm.bias_feature <= 0.0) throw cli::UsageError("--final-svm-bias", "must be positive");
    if (o.rounds < 1) throw cli::UsageError("--final-rounds", "must be at least 1");
    if (o.negatives < 1) throw cli::UsageError("--final-negatives", "must be at least 1");
    if (!(o.mine_scale_factor > 1.0)) throw cli::UsageError("--final-mine-scale", "must be above 1");
}

std::vector<float> histogram_features(const GrayImage& image, int x, int y, const LbpHistogramSvm& layout) {
    const LbpBinPlane plane = build_lbp_bin_plane(image.view());
    const float area = static_cast<float>(layout.cell * layout.cell);
    std::vector<float> out;
    out.reserve(static_cast<std::size_t>(layout.cells_x) * layout.cells_y * kLbpUniformBins);
    int counts[kLbpUniformBins];
    for (int j = 0; j < layout.cells_y; ++j)
        for (int i = 0; i < layout.cells_x; ++i) {
            lbp_cell_counts(plane.view(), x + i * layout.step, y + j * layout.step, layout.cell, counts);
            for (const int n : counts) out.push_back(exact::sqrt(exact::div(static_cast<float>(n), area)));
        }
    return out;
}

void train_histogram_svm(LbpCascade& cascade, const std::vector<GrayImage>& positives, int ring,
                         const std::vector<data::NegativeImage>& negatives, const HistogramSvmOptions& options,
                         const std::function<void(const std::string&)>& log) {
    cascade.final_svm.reset();
    LbpHistogramSvm svm = layout_of(cascade.window, options);
    Problem problem;
    problem.dims = svm.cells_x * svm.cells_y * kLbpUniformBins;
    const std::vector<GrayImage> kept = accepted_only(cascade, positives, ring, options.threads);
    problem.add(kept, ring, +1, svm, options.threads);
    log("final stage: " + std::to_string(kept.size()) + " of " + std::to_string(positives.size()) +
        " training positives pass the " + std::to_string(cascade.stages.size()) + " stages; " +
        std::to_string(svm.cells_x) + "x" + std::to_string(svm.cells_y) + " cells, " + std::to_string(problem.dims) +
        " features");
    MiningParams params;
    params.window = cascade.window;
    params.scale_factor = options.mine_scale_factor;
    params.per_image = options.mine_per_image;
    params.seed = options.seed ^ 0x5eedf1a1ull;
    params.threads = options.threads;
    params.margin = 1;  // each window's LBP codes read the pixels around it
    NegativeMiner miner(negatives, params);
    for (int round = 0; round < options.rounds; ++round) {
        LbpCascade miner_cascade = cascade;
        if (round > 0) {
            miner_cascade.final_svm = svm;
            miner_cascade.final_svm->threshold = kMargin;
        }
        const MiningBatch batch = miner.mine(options.negatives, LbpWindowClassifier(miner_cascade));
        problem.add(batch.crops, params.margin, -1, svm, options.threads);
        const std::vector<int> ones(problem.labels.size(), 1);
        const std::vector<float> w = hog::train_linear_svm(problem.x, problem.dims, problem.labels, ones, options.svm);
        svm.weights.assign(w.begin(), w.end() - 1);
        svm.bias = w.back();
        log("final stage round " + std::to_string(round + 1) + "/" + std::to_string(options.rounds) + ": " +
            std::to_string(batch.windows.size()) + " negatives mined from " + std::to_string(batch.scanned) +
            " windows (" + (round == 0 ? "the prefix's" : "at the SVM's margin") + "), " +
            std::to_string(problem.labels.size()) + " windows trained on" +
            (batch.exhausted ? "; every window of the negative images has been scanned" : ""));
        if (batch.exhausted) break;
    }
    svm.threshold = 0.f;
    cascade.final_svm = svm;
}

}  // namespace cascade::train::lbp
