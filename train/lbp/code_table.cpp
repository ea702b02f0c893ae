#include "train/lbp/code_table.hpp"

#include <algorithm>

#include "common/integral.hpp"
#include "common/lbp_eval.hpp"
#include "common/parallel.hpp"

namespace cascade::train::lbp {

namespace {

// Samples per task: their integral images (33 KB each for 64x128) stay in cache while every feature is
// evaluated on them.
constexpr int kSamplesPerTask = 16;

}  // namespace

CodeTable::CodeTable(int features, int slots)
    : features_(features), slots_(slots), codes_(static_cast<std::size_t>(features) * slots) {}

void CodeTable::fill(const std::vector<LbpFeature>& pool, const std::vector<int>& slots,
                     const std::vector<GrayImage>& windows, int threads) {
    const int n = static_cast<int>(slots.size());
    parallel_for((n + kSamplesPerTask - 1) / kSamplesPerTask,
                 [&](int task) {
                     const int first = task * kSamplesPerTask, count = std::min(kSamplesPerTask, n - first);
                     IntegralImage sums[kSamplesPerTask];
                     for (int j = 0; j < count; ++j)
                         compute_integral(windows[static_cast<std::size_t>(first + j)].view(), sums[j]);
                     for (int f = 0; f < features_; ++f) {
                         std::uint8_t* row = codes_.data() + static_cast<std::size_t>(f) * slots_;
                         for (int j = 0; j < count; ++j)
                             row[slots[static_cast<std::size_t>(first + j)]] = static_cast<std::uint8_t>(
                                 lbp_code(sums[j].view(), 0, 0, pool[static_cast<std::size_t>(f)]));
                     }
                 },
                 threads);
}

}  // namespace cascade::train::lbp
