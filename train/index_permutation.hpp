// A pseudo-random permutation of [0, n) that needs no storage: a four-round Feistel network on the smallest
// even-bit domain 2^2h >= n, with cycle walking (re-encrypting until the value falls below n, at most four
// rounds on average since 2^2h < 4n). Lets the negative miner visit millions of windows per image in random
// order, remembering only how many it has visited.
#pragma once

#include <cstdint>

namespace cascade::train {

class IndexPermutation {
public:
    IndexPermutation(std::uint64_t n, std::uint64_t key) : n_(n), key_(key) {
        while ((std::uint64_t{1} << (2 * half_bits_)) < n_) ++half_bits_;
        mask_ = (std::uint64_t{1} << half_bits_) - 1;
    }

    // The i-th element of the permutation, i < n.
    std::uint64_t operator()(std::uint64_t i) const {
        do i = encrypt(i);
        while (i >= n_);
        return i;
    }

private:
    std::uint64_t encrypt(std::uint64_t v) const {
        std::uint64_t left = v >> half_bits_, right = v & mask_;
        for (std::uint64_t round = 0; round < 4; ++round) {
            const std::uint64_t next = left ^ (mix(right ^ key_ ^ (round * 0x9e3779b97f4a7c15ull)) & mask_);
            left = right;
            right = next;
        }
        return (left << half_bits_) | right;
    }

    static std::uint64_t mix(std::uint64_t z) {
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }

    std::uint64_t n_;
    std::uint64_t key_;
    int half_bits_ = 1;
    std::uint64_t mask_ = 1;
};

}  // namespace cascade::train
