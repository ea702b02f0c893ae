#include "data/dataset.hpp"

#include <set>

#include "common/error.hpp"
#include "data/holdout_split.hpp"
#include "data/image_files.hpp"

namespace cascade::data {

namespace {

std::vector<GrayImage> windows_of(std::vector<PositiveSample>& samples) {
    std::vector<GrayImage> out;
    out.reserve(samples.size());
    for (PositiveSample& s : samples) out.push_back(std::move(s.window));
    return out;
}

}  // namespace

Dataset load_dataset(const DatasetSpec& spec) {
    if (spec.positives.empty()) throw InputError("--pos", "no positive source given");
    if (spec.negatives.empty()) throw InputError("--neg", "no negative source given");
    std::vector<PositiveSource> sources;
    std::vector<std::vector<std::string>> groups_per_source;
    for (const std::string& s : spec.positives) {
        const std::vector<PositiveSource> found = find_positives(s, spec.group_by);
        sources.insert(sources.end(), found.begin(), found.end());
        groups_per_source.emplace_back();
        for (const PositiveSource& f : found) groups_per_source.back().push_back(f.group);
    }
    std::vector<std::string> groups;
    for (const PositiveSource& s : sources) groups.push_back(s.group);
    const std::vector<bool> held =
        trainer_holdout_by_source(groups_per_source, HoldoutOf::positives, spec.holdout, spec.seed);
    std::vector<PositiveSource> train, test;
    for (std::size_t i = 0; i < sources.size(); ++i) (held[i] ? test : train).push_back(sources[i]);
    if (train.empty()) throw InputError("--holdout", "holds out every positive: nothing is left to train on");

    Dataset data;
    data.photos = static_cast<int>(std::set<std::string>(groups.begin(), groups.end()).size());
    std::set<std::string> held_groups;
    for (const PositiveSource& s : test) held_groups.insert(s.group);
    data.heldout_photos = static_cast<int>(held_groups.size());
    for (const PositiveSource& s : sources) data.crops += s.box ? 0 : 1;
    CropParams crop = spec.crop;
    crop.jitter.seed = spec.seed;
    std::vector<PositiveSample> samples = load_positives(train, crop, spec.threads);
    for (const PositiveSample& s : samples) data.positive_groups.push_back(s.group);
    for (const PositiveSample& s : samples) data.centred_crops += s.centred ? 1 : 0;
    data.centred_crops /= (1 + crop.jitter.copies) * (crop.mirror ? 2 : 1);  // samples per crop
    data.positives = windows_of(samples);
    CropParams plain = spec.crop;
    plain.mirror = false;
    plain.jitter.copies = 0;
    samples = load_positives(test, plain, spec.threads);
    for (const PositiveSample& s : samples) data.centred_crops += s.centred ? 1 : 0;
    data.heldout_positives = windows_of(samples);

    std::vector<std::string> images;
    std::vector<std::vector<std::string>> images_per_source;
    for (const std::string& s : spec.negatives) {
        images_per_source.push_back(list_images(s));
        images.insert(images.end(), images_per_source.back().begin(), images_per_source.back().end());
    }
    const std::vector<bool> held_images =
        trainer_holdout_by_source(images_per_source, HoldoutOf::negatives, spec.holdout, spec.seed);
    std::vector<std::string> train_images;
    for (std::size_t i = 0; i < images.size(); ++i)
        (held_images[i] ? data.heldout_negatives : train_images).push_back(images[i]);
    if (train_images.empty()) throw InputError("--holdout", "holds out every negative image: nothing is left to mine");
    data.negatives = index_negative_images(train_images, spec.crop.window, "--neg", spec.threads);
    return data;
}

}  // namespace cascade::data
