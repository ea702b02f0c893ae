#include "train/hog/final_svm.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

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

FinalSvmProblem::FinalSvmProblem(Size window, bool with_sum, const FinalSvmOptions& options)
    : grid_(block_grids(window, options.grids)),
      with_sum_(with_sum),
      dims_(static_cast<int>(grid_.size()) * kHogBlockDims + (with_sum ? 1 : 0)),
      options_(options) {}

void FinalSvmProblem::add(const WindowSet& windows, const std::vector<double>& sums, int label) {
    const std::size_t first = labels_.size(), dims = static_cast<std::size_t>(dims_);
    labels_.resize(first + static_cast<std::size_t>(windows.size()), label > 0 ? 1 : -1);
    if (with_sum_) sums_.insert(sums_.end(), sums.begin(), sums.begin() + windows.size());
    if (label > 0) num_positives_ += windows.size();
    x_.resize(labels_.size() * dims);
    parallel_for(
        windows.size(),
        [&](int i) {
            const HogSampler view = windows.view(i);
            float* row = &x_[(first + static_cast<std::size_t>(i)) * dims];
            for (std::size_t b = 0; b < grid_.size(); ++b) {
                if (is_dalal_triggs(options_.descriptor))
                    dalal_triggs_block(view, 0, 0, grid_[b], options_.descriptor == kHogDescriptorDalalTriggsGamma,
                                       row + b * kHogBlockDims);
                else
                    hog_block_descriptor(view, 0, 0, grid_[b], row + b * kHogBlockDims);
            }
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
