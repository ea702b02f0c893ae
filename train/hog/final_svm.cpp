#include "train/hog/final_svm.hpp"

#include <algorithm>
#include <cmath>

#include "common/hog_eval.hpp"
#include "common/parallel.hpp"

namespace cascade::train::hog {

std::vector<Rect> block_grid(Size window, int block, int stride) {
    std::vector<Rect> grid;
    for (int y = 0; y + block <= window.height; y += stride)
        for (int x = 0; x + block <= window.width; x += stride) grid.push_back({x, y, block, block});
    return grid;
}

StageResult train_final_svm(const WindowSet& positives, const WindowSet& negatives,
                            const std::vector<double>& initial_sums, const FinalSvmOptions& options) {
    const std::vector<Rect> grid = block_grid(positives.window(), options.block, options.stride);
    const int num_pos = positives.size(), n = num_pos + negatives.size();
    const bool with_sum = !initial_sums.empty();
    const int dims = static_cast<int>(grid.size()) * kHogBlockDims + (with_sum ? 1 : 0);
    std::vector<float> x(static_cast<std::size_t>(n) * static_cast<std::size_t>(dims));
    std::vector<int> labels(static_cast<std::size_t>(n));
    parallel_for(
        n,
        [&](int i) {
            const HogIntegralView view = i < num_pos ? positives.view(i) : negatives.view(i - num_pos);
            float* row = &x[static_cast<std::size_t>(i) * static_cast<std::size_t>(dims)];
            for (std::size_t b = 0; b < grid.size(); ++b) hog_block_descriptor(view, 0, 0, grid[b], row + b * kHogBlockDims);
            if (with_sum) row[dims - 1] = static_cast<float>(initial_sums[static_cast<std::size_t>(i)]);
            labels[static_cast<std::size_t>(i)] = i < num_pos ? 1 : -1;
        },
        options.threads);
    const std::vector<float> w =
        train_linear_svm(x, dims, labels, std::vector<int>(static_cast<std::size_t>(n), 1), options.svm);
    const float slope = with_sum && w[static_cast<std::size_t>(dims) - 1] > 0.f ? 1.f / w[static_cast<std::size_t>(dims) - 1] : 1.f;

    StageResult result;
    for (std::size_t b = 0; b < grid.size(); ++b) {
        HogWeak weak;
        weak.block = grid[b];
        std::copy(w.begin() + static_cast<std::ptrdiff_t>(b * kHogBlockDims),
                  w.begin() + static_cast<std::ptrdiff_t>((b + 1) * kHogBlockDims), weak.weights);
        weak.bias = 0.f;
        weak.num_cuts = 0;
        weak.responses[0] = weak.responses[1] = 0.f;
        weak.slope = slope;
        result.weaks.push_back(weak);
    }
    // The sums as run_stages makes them: the sum so far, then each block's response in order.
    std::vector<double> sums(static_cast<std::size_t>(n), 0.0);
    parallel_for(
        n,
        [&](int i) {
            const float* row = &x[static_cast<std::size_t>(i) * static_cast<std::size_t>(dims)];
            double sum = with_sum ? initial_sums[static_cast<std::size_t>(i)] : 0.0;
            for (std::size_t b = 0; b < grid.size(); ++b)
                sum += hog_response(result.weaks[b], hog_projection(result.weaks[b], row + b * kHogBlockDims));
            sums[static_cast<std::size_t>(i)] = sum;
        },
        options.threads);
    set_threshold(sums, num_pos, options.min_hit_rate, result);
    return result;
}

}  // namespace cascade::train::hog
