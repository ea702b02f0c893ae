#include "train/hog/final_svm.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "cli/usage_error.hpp"
#include "cli/values.hpp"
#include "common/hog_eval.hpp"
#include "common/parallel.hpp"

namespace cascade::train::hog {

std::vector<Rect> block_grid(Size window, int block, int stride) {
    std::vector<Rect> grid;
    for (int y = 0; y + block <= window.height; y += stride)
        for (int x = 0; x + block <= window.width; x += stride) grid.push_back({x, y, block, block});
    return grid;
}

std::vector<Rect> block_grids(Size window, const std::vector<BlockGridSpec>& grids) {
    std::vector<Rect> blocks;
    for (const BlockGridSpec& g : grids) {
        const std::vector<Rect> grid = block_grid(window, g.block, g.stride);
        blocks.insert(blocks.end(), grid.begin(), grid.end());
    }
    return blocks;
}

std::vector<BlockGridSpec> parse_grids(const std::string& option, const std::string& text) {
    std::vector<BlockGridSpec> grids;
    std::istringstream parts(text + ",");
    for (std::string part; std::getline(parts, part, ',');) {
        const auto slash = part.find('/');
        if (slash == std::string::npos) throw cli::UsageError(option, "'" + part + "' is not BLOCK/STRIDE (e.g. 16/8)");
        const BlockGridSpec g{cli::parse_int(option, part.substr(0, slash)), cli::parse_int(option, part.substr(slash + 1))};
        if (g.block < 2 || g.block % 2 != 0 || g.block > 64 || g.stride < 1)
            throw cli::UsageError(option, "'" + part + "': a block is an even 2..64 pixels, the stride at least 1");
        grids.push_back(g);
    }
    return grids;
}

namespace {

constexpr int kLearnersPerCell = (kLbpUniformBins + kHogBlockDims - 1) / kHogBlockDims;  // 2

// An LBP learner's projection of its cell's features `f` (lbp_learner_projection's operations, in its order).
float lbp_feature_projection(const HogWeak& weak, const float* f) {
    float dot = 0.f;
    for (int i = 0; i < lbp_learner_bins(weak.first_bin); ++i)
        dot = exact::add(dot, exact::mul(weak.weights[i], f[weak.first_bin + i]));
    return exact::add(dot, weak.bias);
}

// The stage's learner of slice [first_bin, first_bin + 36) of the cell's weights `w` (59 values).
HogWeak lbp_learner(Rect cell, const float* w, int first_bin, float slope) {
    HogWeak weak;
    weak.block = cell;
    weak.descriptor = kHogDescriptorLbpHistogram;
    weak.first_bin = first_bin;
    std::copy(w + first_bin, w + first_bin + lbp_learner_bins(first_bin), weak.weights);
    weak.num_cuts = 0;
    weak.slope = slope;
    return weak;
}

}  // namespace

FinalSvmProblem::FinalSvmProblem(Size window, bool with_sum, const FinalSvmOptions& options)
    : grid_(block_grids(window, options.grids)),
      cells_(options.lbp_histograms ? block_grid(window, kLbpCellSide, kLbpCellSide) : std::vector<Rect>{}),
      with_sum_(with_sum),
      dims_(static_cast<int>(grid_.size()) * kHogBlockDims + static_cast<int>(cells_.size()) * kLbpUniformBins +
            (with_sum ? 1 : 0)),
      options_(options) {}

void FinalSvmProblem::describe(const HogSampler& view, float* row) const {
    for (std::size_t b = 0; b < grid_.size(); ++b) {
        if (is_dalal_triggs(options_.descriptor))
            dalal_triggs_block(view, 0, 0, grid_[b], options_.descriptor == kHogDescriptorDalalTriggsGamma,
                               row + b * kHogBlockDims);
        else
            hog_block_descriptor(view, 0, 0, grid_[b], row + b * kHogBlockDims);
    }
    float* cells = row + grid_.size() * kHogBlockDims;
    for (std::size_t c = 0; c < cells_.size(); ++c)
        lbp_cell_features(view, cells_[c].x, cells_[c].y, cells_[c].width, cells + c * kLbpUniformBins);
}

void FinalSvmProblem::add(const WindowSet& windows, const std::vector<double>& sums, int label) {
    if (!cells_.empty() && !windows.has_lbp_bins())
        throw std::logic_error("FinalSvmProblem::add: LBP cells asked for, but the windows have no LBP bins");
    const std::size_t first = labels_.size(), dims = static_cast<std::size_t>(dims_);
    labels_.resize(first + static_cast<std::size_t>(windows.size()), label > 0 ? 1 : -1);
    if (with_sum_) sums_.insert(sums_.end(), sums.begin(), sums.begin() + windows.size());
    if (label > 0) num_positives_ += windows.size();
    x_.resize(labels_.size() * dims);
    parallel_for(
        windows.size(),
        [&](int i) {
            float* row = &x_[(first + static_cast<std::size_t>(i)) * dims];
            describe(windows.view(i), row);
            if (with_sum_) row[dims - 1] = static_cast<float>(sums[static_cast<std::size_t>(i)]);
        },
        options_.threads);
}

FinalSvm FinalSvmProblem::train() const {
    const std::size_t n = labels_.size(), dims = static_cast<std::size_t>(dims_);
    const std::vector<float> w = train_linear_svm(x_, dims_, labels_, std::vector<int>(n, 1), options_.svm);
    const float w0 = with_sum_ ? w[dims - 1] : 0.f;
    const float slope = w0 > 0.f ? 1.f / w0 : 1.f;

    FinalSvm out;
    StageResult& result = out.stage;
    for (std::size_t b = 0; b < grid_.size(); ++b) {
        HogWeak weak;
        weak.block = grid_[b];
        std::copy(w.begin() + static_cast<std::ptrdiff_t>(b * kHogBlockDims),
                  w.begin() + static_cast<std::ptrdiff_t>((b + 1) * kHogBlockDims), weak.weights);
        weak.bias = 0.f;
        weak.num_cuts = 0;
        weak.responses[0] = weak.responses[1] = 0.f;
        weak.slope = slope;
        weak.descriptor = options_.descriptor;
        result.weaks.push_back(weak);
    }
    const float* cell_weights = w.data() + grid_.size() * kHogBlockDims;
    for (std::size_t c = 0; c < cells_.size(); ++c)
        for (int first_bin = 0; first_bin < kLbpUniformBins; first_bin += kHogBlockDims)
            result.weaks.push_back(lbp_learner(cells_[c], cell_weights + c * kLbpUniformBins, first_bin, slope));
    // Decision value f = w . x + w0 s + bias, and the stage's sum s + (w . x) / w0 = (f - bias) / w0; with
    // slope 1 (no usable w0) the sum is s + w . x, which is f - bias when s enters with weight 1 or not at all.
    const float bias = w.back();
    out.margin = w0 > 0.f ? (-1.f - bias) / w0 : -1.f - bias;

    // The sums as run_stages makes them (the sum so far, then each block's response in order), positives first.
    std::vector<double> sums = with_sum_ ? sums_ : std::vector<double>(n, 0.0);
    parallel_for(
        static_cast<int>(n),
        [&](int i) {
            const float* row = &x_[static_cast<std::size_t>(i) * dims];
            double& sum = sums[static_cast<std::size_t>(i)];
            for (std::size_t b = 0; b < grid_.size(); ++b)
                sum += hog_response(result.weaks[b], hog_projection(result.weaks[b], row + b * kHogBlockDims));
            const float* cells = row + grid_.size() * kHogBlockDims;
            for (std::size_t k = grid_.size(); k < result.weaks.size(); ++k) {
                const std::size_t c = (k - grid_.size()) / kLearnersPerCell;
                sum += hog_response(result.weaks[k], lbp_feature_projection(result.weaks[k], cells + c * kLbpUniformBins));
            }
        },
        options_.threads);
    std::vector<double> ordered;  // positives, then negatives
    for (int label : {1, -1})
        for (std::size_t i = 0; i < n; ++i)
            if (labels_[i] == label) ordered.push_back(sums[i]);
    set_threshold(ordered, num_positives_, options_.min_hit_rate, result);
    return out;
}

}  // namespace cascade::train::hog
