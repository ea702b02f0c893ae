// Deterministic random numbers for training: the same values on every platform and for every thread count.
//
// Each task draws from its own generator seeded from (seed, task indices), never from a shared sequence, so
// results do not depend on which thread ran what. SplitMix64 (Steele et al. 2014) is the generator, and
// bounded draws use Lemire's multiply-shift, so no standard-library distribution (whose algorithms differ
// between implementations) is involved.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <utility>
#include <vector>

namespace cascade::data {

class Random {
public:
    // A generator for the task identified by `keys` under `seed`: distinct keys give independent streams.
    Random(std::uint64_t seed, std::initializer_list<std::uint64_t> keys) : state_(seed) {
        for (std::uint64_t k : keys) state_ = mix(state_ ^ mix(k + 0x632be59bd9b4e019ull));
    }

    std::uint64_t next() {
        state_ += 0x9e3779b97f4a7c15ull;
        return mix(state_);
    }

    // Uniform in [0, n), n >= 1.
    std::uint64_t below(std::uint64_t n) {
        __extension__ using Wide = unsigned __int128;
        return static_cast<std::uint64_t>((static_cast<Wide>(next()) * n) >> 64);
    }

    // A uniformly random permutation of [0, n).
    std::vector<int> permutation(int n) {
        std::vector<int> p(static_cast<std::size_t>(n));
        for (int i = 0; i < n; ++i) p[static_cast<std::size_t>(i)] = i;
        for (int i = n - 1; i > 0; --i)
            std::swap(p[static_cast<std::size_t>(i)], p[below(static_cast<std::uint64_t>(i) + 1)]);
        return p;
    }

private:
    static std::uint64_t mix(std::uint64_t z) {
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }

    std::uint64_t state_;
};

}  // namespace cascade::data
