#include "data/holdout_split.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include "data/random.hpp"

namespace cascade::data {

std::vector<bool> held_out_by_group(const std::vector<std::string>& groups, double fraction, std::uint64_t seed) {
    const std::set<std::string> distinct_set(groups.begin(), groups.end());
    const std::vector<std::string> distinct(distinct_set.begin(), distinct_set.end());
    const int n = static_cast<int>(distinct.size());
    const int held = static_cast<int>(std::lround(fraction * n));
    const std::vector<int> order = Random(seed, {0x686f6c646f7574ull}).permutation(n);
    std::set<std::string> held_groups;
    for (int i = 0; i < held; ++i)
        held_groups.insert(distinct[static_cast<std::size_t>(order[static_cast<std::size_t>(i)])]);
    std::vector<bool> out(groups.size());
    for (std::size_t i = 0; i < groups.size(); ++i) out[i] = held_groups.count(groups[i]) > 0;
    return out;
}

std::vector<bool> trainer_holdout_by_source(const std::vector<std::vector<std::string>>& groups_per_source,
                                            HoldoutOf what, double fraction, std::uint64_t seed) {
    std::vector<bool> out;
    for (const std::vector<std::string>& groups : groups_per_source) {
        const std::vector<bool> held =
            held_out_by_group(groups, fraction, seed * 1000003 + static_cast<std::uint64_t>(what));
        out.insert(out.end(), held.begin(), held.end());
    }
    return out;
}

}  // namespace cascade::data
