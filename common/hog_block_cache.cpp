#include "common/hog_block_cache.hpp"

#include "common/dalal_triggs_descriptor.hpp"

namespace cascade {

namespace {
constexpr DtVote kNotComputed{0, 1, 0.f, -1.f};
}  // namespace

DtVote HogBlockCache::VoteReader::computed_vote(int x, int y, bool gamma) const {
    const GradientPair g = gamma ? pixels.gamma_gradient(x, y) : pixels.gradient(x, y);
    const DtVote vote = dt_pixel_vote(g.gx, g.gy);
    votes[gamma ? 1 : 0][static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x)] = vote;
    return vote;
}

void HogBlockCache::reset(Size level) {
    level_ = level;
    for (auto& memo : dalal_triggs_) memo.reset(level);
    for (auto& votes : votes_) votes.clear();
    for (auto& side_memo : lbp_) side_memo.second.reset(level);
}

void HogBlockCache::dalal_triggs(const HogSampler& s, int x, int y, bool gamma, float v[kHogBlockDims]) {
    dalal_triggs_[gamma ? 1 : 0].get(x, y, v, [&] {
        std::vector<DtVote>& votes = votes_[gamma ? 1 : 0];
        if (votes.empty())
            votes.assign(static_cast<std::size_t>(level_.width) * static_cast<std::size_t>(level_.height), kNotComputed);
        dalal_triggs_block(VoteReader{s, votes_, level_.width}, x, y, Rect{0, 0, kDalalTriggsBlock, kDalalTriggsBlock},
                           gamma, v);
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
