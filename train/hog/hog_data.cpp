#include "train/hog/hog_data.hpp"

#include "common/error.hpp"
#include "common/hog_features.hpp"
#include "common/parallel.hpp"
#include "data/holdout_split.hpp"
#include "data/image_files.hpp"

namespace cascade::train::hog {

HogData find_hog_data(const std::vector<std::string>& positive_sources, const std::vector<std::string>& negative_sources,
                      Size window, double holdout, std::uint64_t seed, int threads, data::GroupBy group_by) {
    if (positive_sources.empty()) throw InputError("--pos", "no positive source given");
    if (negative_sources.empty()) throw InputError("--neg", "no negative source given");
    HogData data;
    std::vector<data::PositiveSource> sources;
    std::vector<std::vector<std::string>> groups_per_source;
    for (const std::string& source : positive_sources) {
        groups_per_source.emplace_back();
        for (const data::PositiveSource& s : data::find_positives(source, group_by)) {
            if (s.box) throw InputError(source, "holds annotated boxes; the HoG trainer takes crops with a margin");
            sources.push_back(s);
            groups_per_source.back().push_back(s.group);
        }
    }
    const std::vector<bool> held =
        data::trainer_holdout_by_source(groups_per_source, data::HoldoutOf::positives, holdout, seed);
    for (std::size_t i = 0; i < sources.size(); ++i) (held[i] ? data.held_positives : data.train_positives).push_back(sources[i]);
    if (data.train_positives.empty()) throw InputError("--holdout", "holds out every positive: nothing is left to train on");

    std::vector<std::string> images;
    std::vector<std::vector<std::string>> images_per_source;
    for (const std::string& source : negative_sources) {
        images_per_source.push_back(data::list_images(source));
        images.insert(images.end(), images_per_source.back().begin(), images_per_source.back().end());
    }
    const std::vector<bool> held_images =
        data::trainer_holdout_by_source(images_per_source, data::HoldoutOf::negatives, holdout, seed);
    std::vector<std::string> train_images, held_out_images;
    for (std::size_t i = 0; i < images.size(); ++i) (held_images[i] ? held_out_images : train_images).push_back(images[i]);
    if (train_images.empty()) throw InputError("--holdout", "holds out every negative image: nothing is left to mine");
    data.train_negatives = data::index_negative_images(train_images, window, "--neg", threads);
    if (!held_out_images.empty())
        data.held_negatives = data::index_negative_images(held_out_images, window, "--neg (held out)", threads);
    return data;
}

void split_calibration(const std::vector<data::PositiveSource>& positives, double fraction, std::uint64_t seed,
                       std::vector<data::PositiveSource>& fitting, std::vector<data::PositiveSource>& calibrating) {
    std::vector<std::string> groups;
    for (const data::PositiveSource& p : positives) groups.push_back(p.group);
    const std::vector<bool> calibrates = data::held_out_by_group(groups, fraction, seed * 1000003 + 13);
    for (std::size_t i = 0; i < positives.size(); ++i) (calibrates[i] ? calibrating : fitting).push_back(positives[i]);
    if (fitting.empty()) throw InputError("--calibration", "leaves no positive crop to fit the learners");
}

GrayImage read_margined_crop(const std::string& path, Size window, const data::Margin& margin) {
    const Size expected{window.width + margin.left + margin.right, window.height + margin.top + margin.bottom};
    GrayImage crop = data::read_gray(path);
    if (!(crop.size() == expected))
        throw InputError(path, "is " + std::to_string(crop.width) + "x" + std::to_string(crop.height) + ", expected " +
                                   std::to_string(expected.width) + "x" + std::to_string(expected.height) + " (a " +
                                   std::to_string(window.width) + "x" + std::to_string(window.height) +
                                   " window with a margin of " + data::margin_text(margin) + " px)");
    return crop;
}

WindowSet load_positive_windows(const std::vector<data::PositiveSource>& crops, Size window, const data::Margin& margin,
                                int threads, const data::Jitter& jitter) {
    data::check_jitter(jitter);
    std::vector<WindowSet> one(crops.size(), WindowSet(window));
    parallel_for(
        static_cast<int>(crops.size()),
        [&](int i) {
            const std::string& path = crops[static_cast<std::size_t>(i)].path;
            const GrayImage crop = read_margined_crop(path, window, margin);
            HogPlanes planes;
            compute_hog_planes(crop.view(), planes, true);
            one[static_cast<std::size_t>(i)].add(planes.sampler(), margin.left, margin.top);
            for (int c = 0; c < jitter.copies; ++c) {  // the crop is the window unscaled: 1 pixel per window pixel
                compute_hog_planes(data::jittered(crop, data::draw_jitter(jitter, i, c), 1.0).view(), planes, true);
                one[static_cast<std::size_t>(i)].add(planes.sampler(), margin.left, margin.top);
            }
        },
        threads);
    WindowSet all(window);
    for (const WindowSet& w : one) all.append(w, w.size());
    return all;
}

}  // namespace cascade::train::hog
