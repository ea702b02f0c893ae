// The CPU scan's memo of one pyramid level's HoG descriptors: windows at stride 8 (or 4) share almost all their
// blocks with their neighbours, so each distinct Dalal-Triggs block descriptor (36 floats, by its corner in the
// level and its gamma flag: the block is always 16x16) and each uniform-LBP cell histogram (59 counts, by corner
// and side) is computed once, the first time a window's learner reads it, and copied for every later reader; the
// overlapping Dalal-Triggs blocks also share their pixels' votes (orientation bins and magnitudes).
// Lazily: few windows reach the final stage that reads them, so a dense grid of every block would mostly go
// unread.
//
// Exactness: a stored value is what the uncached path computes for that block (the same __host__ __device__
// function, dalal_triggs_block or lbp_cell_counts, on the same pixels; the arithmetic does not depend on where
// the window lies), so the windows and scores are bit-identical to the uncached evaluation's.
//
// Host only. HogWindow (common/hog_eval.hpp) reads through the cache where its sampler has one (HasBlockCache);
// the GPU's samplers have none and their code is unchanged. One cache belongs to one level's planes and is
// used by one thread (HogFamily scans level by level, one level per task: common/scan_pyramid.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "common/dalal_triggs_descriptor.hpp"
#include "common/geometry.hpp"
#include "common/hog_features.hpp"
#include "common/lbp_uniform.hpp"

namespace cascade {

// N values of type T per pixel position of a level, computed on first use. Memory: an int32 slot per position
// (allocated on the level's first use) and the values computed, up to kMaxBytes; beyond that (a scan at stride 1
// of a large level), further positions are computed every time instead of stored.
template <class T, int N>
class PositionMemo {
public:
    static constexpr std::size_t kMaxBytes = std::size_t{32} << 20;

    // Forgets every value (keeps the storage) for a level of `size`.
    void reset(Size size) {
        size_ = size;
        slots_.clear();
        values_.clear();
    }

    // Puts the values of position (x, y) in out[0 .. N): copied from the memo, or compute() fills `out` and they
    // are stored.
    template <class Compute>
    void get(int x, int y, T* out, Compute&& compute) {
        if (slots_.empty()) slots_.assign(static_cast<std::size_t>(size_.width) * static_cast<std::size_t>(size_.height), -1);
        std::int32_t& slot = slots_[static_cast<std::size_t>(y) * static_cast<std::size_t>(size_.width) + static_cast<std::size_t>(x)];
        if (slot >= 0) {
            const T* stored = values_.data() + static_cast<std::size_t>(slot) * N;
            for (int i = 0; i < N; ++i) out[i] = stored[i];
            return;
        }
        compute();
        if ((values_.size() + N) * sizeof(T) > kMaxBytes) return;
        slot = static_cast<std::int32_t>(values_.size() / N);
        values_.insert(values_.end(), out, out + N);
    }

private:
    Size size_;
    std::vector<std::int32_t> slots_;  // per position: its index in values_ (in units of N), -1 before it is computed
    std::vector<T> values_;
};

// The descriptors of one level that HoG learners read from pixels (not from the integral histograms).
class HogBlockCache {
public:
    void reset(Size level);

    // The normalised Dalal-Triggs descriptor of the 16x16 block whose top-left corner is (x, y) of the level.
    void dalal_triggs(const HogSampler& s, int x, int y, bool gamma, float v[kHogBlockDims]);
    // The uniform-LBP counts of the side x side cell whose top-left corner is (x, y) of the level.
    void lbp_counts(const HogSampler& s, int x, int y, int side, int (&counts)[kLbpUniformBins]);

private:
    // The level's pixel votes (dt_pixel_vote) of one kind of gradients, each computed on its first read: the
    // blocks of a level overlap (by 8 pixels on the scan's grid, by 12 between windows at stride 4).
    struct VoteReader {
        const HogSampler& pixels;
        std::vector<DtVote>* votes;  // [0]: plain, [1]: gamma-corrected; magnitude < 0: not computed
        int width;

        DtVote dt_vote(int x, int y, bool gamma) const {
            const DtVote& vote = votes[gamma ? 1 : 0][static_cast<std::size_t>(y) * static_cast<std::size_t>(width) +
                                                     static_cast<std::size_t>(x)];
            return vote.magnitude >= 0.f ? vote : computed_vote(x, y, gamma);
        }
        DtVote computed_vote(int x, int y, bool gamma) const;  // and stored
    };

    Size level_;
    PositionMemo<float, kHogBlockDims> dalal_triggs_[2];                   // plain, gamma-corrected
    std::vector<DtVote> votes_[2];                                        // per pixel; empty before first use
    std::vector<std::pair<int, PositionMemo<int, kLbpUniformBins>>> lbp_;  // by cell side
};

// HogSampler with its level's cache: what HogWindow reads on the CPU (HasBlockCache).
struct HogCachedSampler : HogSampler {
    HogBlockCache* cache = nullptr;

    void dalal_triggs_block_at(int x, int y, bool gamma, float v[kHogBlockDims]) const {
        cache->dalal_triggs(*this, x, y, gamma, v);
    }
    void lbp_cell_counts_at(int x, int y, int side, int (&counts)[kLbpUniformBins]) const {
        cache->lbp_counts(*this, x, y, side, counts);
    }
};

// A level's HoG planes on the CPU and the cache of their descriptors (mutable: a memo, filled while windows read
// the planes).
struct HogCpuPlanes : HogPlanes {
    mutable HogBlockCache cache;

    HogCachedSampler cached_sampler() const { return {sampler(), &cache}; }
};

}  // namespace cascade
