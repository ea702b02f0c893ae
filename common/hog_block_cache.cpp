#include "common/hog_block_cache.hpp"

#include "common/dalal_triggs_descriptor.hpp"

namespace cascade {

void HogBlockCache::reset(Size level) {
    level_ = level;
    for (auto& memo : dalal_triggs_) memo.reset(level);
    for (auto& side_memo : lbp_) side_memo.second.reset(level);
}

void HogBlockCache::dalal_triggs(const HogSampler& s, int x, int y, bool gamma, float v[kHogBlockDims]) {
    dalal_triggs_[gamma ? 1 : 0].get(x, y, v, [&] {
        dalal_triggs_block(s, x, y, Rect{0, 0, kDalalTriggsBlock, kDalalTriggsBlock}, gamma, v);
    });
}

void HogBlockCache::lbp_counts(const HogSampler& s, int x, int y, int side, int (&counts)[kLbpUniformBins]) {
    auto memo = lbp_.begin();
    while (memo != lbp_.end() && memo->first != side) ++memo;
    if (memo == lbp_.end()) {
        lbp_.emplace_back(side, PositionMemo<int, kLbpUniformBins>{});
        memo = lbp_.end() - 1;
        memo->second.reset(level_);
    }
    memo->second.get(x, y, counts, [&] { lbp_cell_counts(s, x, y, side, counts); });
}

}  // namespace cascade
