#include "train/cov/cov_final_svm.hpp"

#include "cli/number_text.hpp"
#include "common/hog_eval.hpp"
#include "train/hog/block_svm.hpp"
#include "train/hog/stage_trainer.hpp"
#include "train/lbp/lbp_window_classifier.hpp"

namespace cascade::train::cov {

namespace {

constexpr std::uint64_t kFinalKey = 0x46494e41;  // the means' draw (the levels use their index)

// Appends each sample's row to the sample-major rows `x`: its vectors under `maps`, rectangle after rectangle,
// then the histograms of `cells`.
void add_rows(const CovSamples& samples, const std::vector<CovWeak>& maps, const std::vector<Rect>& cells,
              int threads, std::vector<float>& x) {
    const VectorTable table = sample_vectors(samples, maps, threads);
    const std::vector<float> histograms = cell_histograms(samples, cells, threads);
    const std::size_t vectors = maps.size() * kCovDims, bins = cells.size() * kLbpUniformBins;
    const std::size_t dims = vectors + bins, first = x.size();
    x.resize(first + static_cast<std::size_t>(samples.size()) * dims);
    for (int i = 0; i < samples.size(); ++i) {
        float* row = x.data() + first + static_cast<std::size_t>(i) * dims;
        for (int r = 0; r < table.rects; ++r)
            std::copy_n(table.of(r) + static_cast<std::size_t>(i) * kCovDims, kCovDims, row + r * kCovDims);
        std::copy_n(histograms.data() + static_cast<std::size_t>(i) * bins, bins, row + vectors);
    }
}

// The SVM's weights (maps.size() * kCovDims of them, then cells.size() * 59, then the bias) as the stage's
// learners: one a rectangle, two a cell (bins 0-35 and 36-58: a CovWeak holds 36 weights).
std::vector<CovWeak> svm_weaks(const std::vector<CovWeak>& maps, const std::vector<Rect>& cells,
                               const std::vector<float>& w) {
    std::vector<CovWeak> weaks = maps;
    for (std::size_t r = 0; r < weaks.size(); ++r)
        std::copy_n(w.begin() + static_cast<std::ptrdiff_t>(r * kCovDims), kCovDims, weaks[r].weights);
    const float* cell_weights = w.data() + maps.size() * kCovDims;
    for (std::size_t c = 0; c < cells.size(); ++c)
        for (int first_bin = 0; first_bin < kLbpUniformBins; first_bin += kCovDims) {
            CovWeak weak;
            weak.rect = cells[c];
            weak.descriptor = kCovDescriptorLbpHistogram;
            weak.first_bin = first_bin;
            std::copy_n(cell_weights + c * kLbpUniformBins + first_bin, lbp_learner_bins(first_bin), weak.weights);
            weaks.push_back(weak);
        }
    for (CovWeak& weak : weaks) {
        weak.bias = 0.f;
        weak.num_cuts = 0;
        weak.slope = 1.f;
    }
    return weaks;
}

// `cascade` with `weaks` as one more stage of threshold `threshold`.
CovCascade with_stage(const CovCascade& cascade, const std::vector<CovWeak>& weaks, float threshold) {
    CovCascade out = cascade;
    out.stages.push_back({static_cast<int>(out.weaks.size()), static_cast<int>(weaks.size()), threshold});
    out.weaks.insert(out.weaks.end(), weaks.begin(), weaks.end());
    return out;
}

}  // namespace

bool add_final_svm(const CovSamples& positives, const std::vector<data::NegativeImage>& negatives,
                   const FinalSvmOptions& options, const StageOptions& stage, int per_image, int min_negatives,
                   CovCascade& cascade, std::vector<StageSummary>& stages, data::Progress& progress) {
    const std::string name = "final stage (linear SVM)";
    const std::vector<CovWeak> maps =
        rect_maps(positives, hog::block_grids(cascade.window, options.grids), kFinalKey, stage);
    std::vector<Rect> cells;
    if (options.lbp_histograms) cells = hog::block_grids(cascade.window, options.lbp_cells);
    const int dims = static_cast<int>(maps.size()) * kCovDims + static_cast<int>(cells.size()) * kLbpUniformBins;
    std::vector<float> x;
    add_rows(positives, maps, cells, stage.threads, x);
    std::vector<int> labels(static_cast<std::size_t>(positives.size()), 1);
    CovSamples mined;
    mined.window = cascade.window;
    NegativeMiner miner(negatives, sample_mining(cascade.window, options.mine_scale, per_image, stage.seed, stage.threads));
    std::vector<CovWeak> weaks;
    hog::StageResult rated;
    float margin = 0.f;
    for (int round = 0; round < options.rounds; ++round) {
        const CovCascade mining = round == 0 ? cascade : with_stage(cascade, weaks, margin);
        const MiningBatch batch = miner.mine(options.negatives, lbp::CascadeWindowClassifier<CovCascade>(mining));
        progress.log(name + " round " + std::to_string(round + 1) + " mining: " + std::to_string(batch.windows.size()) +
                     " negatives, " + std::to_string(batch.scanned) + " windows scanned (FPPW " +
                     cli::real_text(static_cast<double>(batch.windows.size()) / static_cast<double>(std::max(batch.scanned, 1LL))) +
                     ")" + (batch.exhausted ? "; the negative images are used up" : ""));
        if (round == 0 && static_cast<int>(batch.windows.size()) < min_negatives) return false;
        if (batch.windows.empty()) break;
        CovSamples batch_samples;
        batch_samples.window = cascade.window;
        batch_samples.crops = batch.crops;
        add_rows(batch_samples, maps, cells, stage.threads, x);
        labels.resize(labels.size() + batch.crops.size(), -1);
        mined.crops.insert(mined.crops.end(), batch.crops.begin(), batch.crops.end());
        const std::vector<float> w =
            hog::train_linear_svm(x, dims, labels, std::vector<int>(labels.size(), 1), options.svm);
        weaks = svm_weaks(maps, cells, w);
        margin = -1.f - w.back();
        std::vector<double> sums(static_cast<std::size_t>(positives.size()), 0.0), negative(mined.crops.size(), 0.0);
        add_responses(positives, weaks, sums, stage.threads);  // the detector's exact sums
        add_responses(mined, weaks, negative, stage.threads);
        sums.insert(sums.end(), negative.begin(), negative.end());
        hog::set_threshold(sums, positives.size(), options.min_hit_rate, rated);
        progress.log(name + " round " + std::to_string(round + 1) + ": " + std::to_string(maps.size()) +
                     " rectangles, " + std::to_string(cells.size()) + " LBP cells, threshold " +
                     cli::fixed_text(rated.threshold, 4) + ", margin " +
                     cli::fixed_text(margin, 4) + ", hit rate " + cli::fixed_text(rated.hit_rate, 4) +
                     ", false alarm " + cli::fixed_text(rated.false_alarm, 4) + "; positives " +
                     std::to_string(positives.size()) + ", negatives " + std::to_string(mined.size()));
    }
    cascade = with_stage(cascade, weaks, rated.threshold);
    stages.push_back({static_cast<int>(weaks.size()), rated.hit_rate, rated.false_alarm});
    return true;
}

}  // namespace cascade::train::cov
