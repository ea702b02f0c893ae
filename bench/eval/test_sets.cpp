#include "bench/eval/test_sets.hpp"

#include "common/error.hpp"
#include "data/holdout_split.hpp"
#include "data/image_files.hpp"
#include "data/positive_samples.hpp"

namespace cascade::eval {

namespace {

// Items whose split matches `held_out` (all of them when holdout is 0), each source split on its own.
std::vector<std::string> part_of(const std::vector<std::vector<std::string>>& items_per_source,
                                 const std::vector<std::vector<std::string>>& groups_per_source, data::HoldoutOf what,
                                 double holdout, std::uint64_t seed) {
    std::vector<std::string> items;
    for (const std::vector<std::string>& source : items_per_source) items.insert(items.end(), source.begin(), source.end());
    if (holdout <= 0.0) return items;
    const std::vector<bool> held = data::trainer_holdout_by_source(groups_per_source, what, holdout, seed);
    std::vector<std::string> out;
    for (std::size_t i = 0; i < items.size(); ++i)
        if (held[i]) out.push_back(items[i]);
    return out;
}

}  // namespace

TestSet find_test_set(const TestSplit& split) {
    if (split.positives.empty()) throw InputError("--pos", "no positive source given");
    if (split.negatives.empty()) throw InputError("--neg", "no negative source given");
    std::vector<std::vector<std::string>> crops, groups;
    for (const std::string& source : split.positives) {
        crops.emplace_back();
        groups.emplace_back();
        for (const data::PositiveSource& s : data::find_positives(source, split.group_by)) {
            if (s.box) throw InputError(source, "holds annotated boxes; the per-window protocol takes crops");
            crops.back().push_back(s.path);
            groups.back().push_back(s.group);
        }
    }
    std::vector<std::vector<std::string>> images;
    for (const std::string& source : split.negatives) images.push_back(data::list_images(source));
    TestSet set{part_of(crops, groups, data::HoldoutOf::positives, split.pos_holdout, split.seed),
                part_of(images, images, data::HoldoutOf::negatives, split.neg_holdout, split.seed)};
    if (set.crops.empty()) throw InputError("--holdout", "leaves no positive crop to measure on");
    if (set.negative_images.empty()) throw InputError("--holdout", "leaves no negative image to measure on");
    return set;
}

}  // namespace cascade::eval
