#include "train/hog/hog_mining.hpp"

#include <algorithm>

#include "common/cascade_eval.hpp"
#include "common/hog_eval.hpp"
#include "common/parallel.hpp"
#include "common/scan_pyramid.hpp"
#include "data/image_files.hpp"
#include "data/random.hpp"

namespace cascade::train::hog {

namespace {

constexpr std::uint64_t kOrderKey = 0x4f524452, kImageKey = 0x494d4147;  // random keys: visiting order, images

// Images per parallel chunk: fixed, so that where mining stops does not depend on the number of threads.
constexpr int kChunk = 32;

struct ImageHarvest {
    WindowSet kept;
    std::int64_t windows = 0;
    std::int64_t false_positives = 0;
};

// scan_pyramid's visitor for one image, on one thread: the cascade's false positives, of which at most
// options.per_image are kept (a uniform sample by reservoir sampling); each level starts at a random offset.
class FalsePositives {
public:
    struct Task {
        FalsePositives* owner;
        template <class Family>
        int visit(const LevelPlanes<Family>& level, int x, int y) {
            return owner->visit(level.sampler, x, y);
        }
    };

    FalsePositives(const HogCascadeView& view, data::Random& random, const MiningOptions& options,
                   ImageHarvest& harvest)
        : view_(view), random_(random), options_(options), harvest_(harvest) {}

    ScanOrigin origin(int) {
        const int x0 = static_cast<int>(random_.below(static_cast<std::uint64_t>(options_.stride)));
        const int y0 = static_cast<int>(random_.below(static_cast<std::uint64_t>(options_.stride)));
        return {x0, y0};
    }
    Task task() { return {this}; }
    void merge(Task&) {}

private:
    // Sampler: the level's HogCachedSampler (its blocks shared between the windows of the level).
    template <class Sampler>
    int visit(const Sampler& sampler, int x, int y) {
        ++harvest_.windows;
        int rejected_at = 0;
        double score = 0.0;
        if (!accept_window(view_, HogWindow<Sampler>{view_, sampler, x, y}, rejected_at, score))
            return rejected_at;
        ++harvest_.false_positives;
        if (harvest_.kept.size() < options_.per_image) {
            harvest_.kept.add(sampler, x, y);
        } else {
            const auto slot = random_.below(static_cast<std::uint64_t>(harvest_.false_positives));
            if (slot < static_cast<std::uint64_t>(options_.per_image))
                harvest_.kept.replace(static_cast<int>(slot), sampler, x, y);
        }
        return rejected_at;
    }

    const HogCascadeView& view_;
    data::Random& random_;
    const MiningOptions& options_;
    ImageHarvest& harvest_;
};

void scan_image(const HogCascade& cascade, const HogCascadeView& view, const GrayImage& image, data::Random& random,
                const MiningOptions& options, ImageHarvest& harvest) {
    ScanParams scan;
    scan.pyramid.scale_factor = options.scale_factor;
    scan.rule.stride = options.stride;
    scan.threads = 1;  // images are mined in parallel; within one, the random draws follow the scan
    FalsePositives visitor(view, random, options, harvest);
    if (options.lbp_bins)
        scan_pyramid<HogLbpFamily>(cascade, image.view(), scan, visitor);
    else
        scan_pyramid(cascade, image.view(), scan, visitor);
}

}  // namespace

MiningReport mine_negatives(const HogCascade& cascade, const std::vector<data::NegativeImage>& images, int stage_index,
                            const MiningOptions& options, WindowSet& out,
                            const std::function<void(int, int)>& on_progress) {
    const HogCascadeView view = view_of(cascade);
    const int num_images = static_cast<int>(images.size());
    const auto stage = static_cast<std::uint64_t>(stage_index);
    const std::vector<int> order = data::Random(options.seed, {kOrderKey, stage}).permutation(num_images);

    // Enough windows per image for `count` even from few images.
    MiningOptions effective = options;
    effective.per_image = std::max(options.per_image, (options.count + num_images - 1) / std::max(num_images, 1));

    MiningReport report;
    report.requested = options.count;
    report.per_image = effective.per_image;
    report.images_total = num_images;
    out.clear();
    for (int start = 0; start < num_images && out.size() < options.count; start += kChunk) {
        const int chunk = std::min(kChunk, num_images - start);
        std::vector<ImageHarvest> harvests(static_cast<std::size_t>(chunk), ImageHarvest{WindowSet(cascade.window)});
        parallel_for(
            chunk,
            [&](int k) {
                const int image = order[static_cast<std::size_t>(start + k)];
                data::Random random(options.seed, {kImageKey, stage, static_cast<std::uint64_t>(image)});
                scan_image(cascade, view, data::read_gray(images[static_cast<std::size_t>(image)].path), random, effective, harvests[static_cast<std::size_t>(k)]);
            },
            options.threads);
        for (const ImageHarvest& h : harvests) {
            out.append(h.kept, std::min(h.kept.size(), options.count - out.size()));
            report.windows_scanned += h.windows;
            report.false_positives += h.false_positives;
        }
        report.images_scanned += chunk;
        on_progress(report.images_scanned, out.size());
    }
    report.found = out.size();
    return report;
}

}  // namespace cascade::train::hog
